import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, onKeyRefused, storedKey, storeKey, whoami, type Role } from './api.ts';
import { apiHealth, onHealth, type ApiHealth } from './health.ts';
import { AskPage } from './pages/ask.tsx';
import { DocumentsPage } from './pages/documents.tsx';
import { SearchPage } from './pages/search.tsx';
import { TracePage } from './pages/trace.tsx';

const PAGES = ['ask', 'search', 'documents', 'trace'] as const;
type Page = (typeof PAGES)[number];
/** Pages only an admin key can use (traces); not offered to a query key. */
const ADMIN_PAGES: ReadonlySet<Page> = new Set(['trace']);

function currentPage(): { page: Page; arg: string } {
  const [name = 'ask', arg = ''] = location.hash.replace(/^#\/?/, '').split('/');
  return { page: (PAGES as readonly string[]).includes(name) ? (name as Page) : 'ask', arg: decodeURIComponent(arg) };
}

/** Asks for the key once; checks it against the gateway (and learns its role) before keeping it. */
function KeyForm({ message, onKey }: { message: string | null; onKey: (role: Role) => void }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(message);
  async function submit(e: Event) {
    e.preventDefault();
    storeKey(value.trim());
    try {
      onKey(await whoami());
    } catch (err) {
      storeKey(null);
      setError(err instanceof ApiError && err.status === 401 ? `That key was refused (${err.message}). Check it and try again.` : `Could not reach the gateway: ${String(err)}`);
    }
  }
  return (
    <form class="card key-form" onSubmit={submit}>
      <h2>API key</h2>
      <p>Quarry needs your API key. It is kept for this browser tab only.</p>
      {error && <p class="error" role="alert" data-testid="key-error">{error}</p>}
      <input type="password" name="key" autocomplete="off" placeholder="API key" value={value} onInput={(e) => setValue(e.currentTarget.value)} required />
      <button type="submit">Continue</button>
    </form>
  );
}

/** Says, while the API is unhealthy, what is wrong and that the page recovers by itself. */
function OutageBanner({ health }: { health: ApiHealth }) {
  if (health === 'ok') return null;
  return (
    <div class="banner" role="alert" data-testid="outage" data-health={health}>
      {health === 'redis-unavailable' ? (
        <>
          <b>Quarry cannot reach its Redis.</b> Questions and the document list are unavailable until it is back; anything already on screen was loaded before the
          outage. This page reconnects by itself.
        </>
      ) : (
        <>
          <b>The Quarry gateway does not answer.</b> This page reconnects by itself when it is back.
        </>
      )}
    </div>
  );
}

/** The session: whether a usable key is known, and its role once the gateway said it. */
interface Session {
  ok: boolean;
  /** null until `GET /v1/whoami` answered: admin actions stay hidden meanwhile. */
  role: Role | null;
  message: string | null;
}

function App() {
  const [route, setRoute] = useState(currentPage);
  const [session, setSession] = useState<Session>({ ok: storedKey() !== null, role: null, message: null });
  const [health, setHealth] = useState<ApiHealth>(apiHealth);
  useEffect(() => {
    const onHash = () => setRoute(currentPage());
    addEventListener('hashchange', onHash);
    const offHealth = onHealth(setHealth);
    const off = onKeyRefused((e) => {
      // The first probe goes without a key: its 401 only means one is needed, not that one was refused.
      if (!storedKey()) return;
      storeKey(null);
      setSession({ ok: false, role: null, message: `The gateway refused the key: ${e.message}.` });
    });
    // With a stored key, its role; without one, whether the gateway needs any (loopback development).
    // A refused key is handled by onKeyRefused; no answer at all keeps the stored key (the banner says why).
    whoami().then(
      (role) => setSession({ ok: true, role, message: null }),
      () => undefined,
    );
    return () => {
      removeEventListener('hashchange', onHash);
      offHealth();
      off();
    };
  }, []);
  const shown = PAGES.filter((p) => !ADMIN_PAGES.has(p) || session.role === 'admin');
  return (
    <>
      <header>
        <h1>Quarry</h1>
        <nav>
          {shown.map((p) => (
            <a href={`#/${p}`} class={route.page === p ? 'active' : ''} key={p}>
              {p[0]!.toUpperCase() + p.slice(1)}
            </a>
          ))}
        </nav>
        {session.ok && storedKey() && (
          <button class="link" onClick={() => (storeKey(null), setSession({ ok: false, role: null, message: null }))}>
            Forget key
          </button>
        )}
      </header>
      <main>
        <OutageBanner health={health} />
        {!session.ok ? (
          <KeyForm message={session.message} onKey={(role) => setSession({ ok: true, role, message: null })} />
        ) : route.page === 'ask' ? (
          <AskPage role={session.role} />
        ) : route.page === 'search' ? (
          <SearchPage />
        ) : route.page === 'documents' ? (
          <DocumentsPage role={session.role} />
        ) : (
          <TracePage runId={route.arg} />
        )}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
