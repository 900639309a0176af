import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, json, onKeyRefused, storedKey, storeKey } from './api.ts';
import { AskPage } from './pages/ask.tsx';
import { DocumentsPage } from './pages/documents.tsx';
import { SearchPage } from './pages/search.tsx';
import { TracePage } from './pages/trace.tsx';

const PAGES = ['ask', 'search', 'documents', 'trace'] as const;
type Page = (typeof PAGES)[number];

function currentPage(): { page: Page; arg: string } {
  const [name = 'ask', arg = ''] = location.hash.replace(/^#\/?/, '').split('/');
  return { page: (PAGES as readonly string[]).includes(name) ? (name as Page) : 'ask', arg: decodeURIComponent(arg) };
}

/** Asks for the key once; checks it against the gateway before keeping it. */
function KeyForm({ message, onKey }: { message: string | null; onKey: () => void }) {
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(message);
  async function submit(e: Event) {
    e.preventDefault();
    storeKey(value.trim());
    try {
      await json('/v1/documents');
      onKey();
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

function App() {
  const [route, setRoute] = useState(currentPage);
  const [keyState, setKeyState] = useState<{ ok: boolean; message: string | null }>({ ok: storedKey() !== null, message: null });
  useEffect(() => {
    const onHash = () => setRoute(currentPage());
    addEventListener('hashchange', onHash);
    const off = onKeyRefused((e) => {
      storeKey(null);
      setKeyState({ ok: false, message: `The gateway refused the key: ${e.message}.` });
    });
    // A gateway without keys (loopback development) needs none: try once without.
    if (!storedKey()) json('/v1/documents').then(() => setKeyState({ ok: true, message: null }), () => undefined);
    return () => {
      removeEventListener('hashchange', onHash);
      off();
    };
  }, []);
  return (
    <>
      <header>
        <h1>Quarry</h1>
        <nav>
          {PAGES.map((p) => (
            <a href={`#/${p}`} class={route.page === p ? 'active' : ''} key={p}>
              {p[0]!.toUpperCase() + p.slice(1)}
            </a>
          ))}
        </nav>
        {keyState.ok && storedKey() && (
          <button class="link" onClick={() => (storeKey(null), setKeyState({ ok: false, message: null }))}>
            Forget key
          </button>
        )}
      </header>
      <main>
        {!keyState.ok ? (
          <KeyForm message={keyState.message} onKey={() => setKeyState({ ok: true, message: null })} />
        ) : route.page === 'ask' ? (
          <AskPage />
        ) : route.page === 'search' ? (
          <SearchPage />
        ) : route.page === 'documents' ? (
          <DocumentsPage />
        ) : (
          <TracePage runId={route.arg} />
        )}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
