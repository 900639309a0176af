/**
 * How a question or a heading printed in a passage passes its match to the statements after it
 * (an FAQ's answer, an executive's reply, a section's first sentence), and how an answer's words
 * are counted. Pure.
 */
import type { PassageSentence, SentenceRole } from './answer-sentences.ts';
import { isSpeakerLine } from '../sectionize/index.ts';

/**
 * What a question or a heading printed in a passage says the sentence after it is about: that
 * sentence is scored at this share of their match (a statement matching as well by its own words
 * comes first). A question asks what the next sentence answers; a heading names its section's
 * subject, which its first sentence may take for granted ("5.3 Unpaid extension" / "An employee
 * may request up to eight additional weeks").
 */
const LEAD_SHARE: Readonly<Record<Exclude<SentenceRole, 'statement'>, number>> = { question: 0.9, heading: 0.8 };
/**
 * The share of a lead's match the statements after its first one get, up to the next lead: a
 * section's later sentences are about its heading too, and an answer may run on ("Requests are
 * approved unless the manager …" after "5.3 Unpaid extension" / "An employee may request …").
 * Below the first's, so they come second unless they state what is asked.
 */
const FOLLOW_SHARE = 0.5;
/** Fewer words than this after a question are an acknowledgement ("Sure.", "Yes."), not its answer. */
const MIN_ANSWER_WORDS = 4;

/** A sentence's lexical match: its score and the share of the question's terms it covers. */
export interface Match {
  score: number;
  coverage: number;
}

/**
 * Each candidate's match, a question's or a heading's passed on ({@link LEAD_SHARE}) to the
 * statement it leads to: the first after it in the same passage with {@link MIN_ANSWER_WORDS} words
 * or more, before any further question or heading. An FAQ's answer, an executive's reply or a
 * section's first sentence shares few words with what was asked; the line before it says what it
 * is about. Pure.
 */
export function answerMatches(candidates: readonly Pick<PassageSentence, 'chunk' | 'text' | 'role'>[], matches: readonly Match[], quotesQuestions = false): Match[] {
  const out = candidates.map((_, i) => ({ score: matches[i]?.score ?? 0, coverage: matches[i]?.coverage ?? 0 }));
  candidates.forEach((cand, i) => {
    if (cand.role === 'statement') return;
    const lead = matches[i];
    if (!lead || lead.coverage <= 0) return;
    let share = LEAD_SHARE[cand.role];
    for (let j = i + 1; j < candidates.length; j++) {
      const next = candidates[j] as Pick<PassageSentence, 'chunk' | 'text' | 'role'>;
      // An analyst's question is answered by the next speaker: the line naming them is passed over.
      if (next.chunk === cand.chunk && next.role === 'heading' && isSpeakerLine(next.text)) continue;
      // Asked what someone asked, a speaker's line leads to their questions too.
      const quotable = next.role === 'statement' || (quotesQuestions && cand.role === 'heading' && next.role === 'question');
      if (next.chunk !== cand.chunk || !quotable) return;
      if (wordCount(next.text) < MIN_ANSWER_WORDS) continue;
      const own = out[j] as Match;
      out[j] = { score: Math.max(own.score, share * lead.score), coverage: Math.max(own.coverage, lead.coverage) };
      share = FOLLOW_SHARE;
    }
  });
  return out;
}

/** Words of a text: whitespace-separated tokens with a letter or digit, citation markers (`[1]`) not counted. */
export function wordCount(text: string): number {
  return text.split(/\s+/u).filter((w) => /[\p{L}\p{N}]/u.test(w) && !/^\[\d+\][.,;:]?$/u.test(w)).length;
}
