/**
 * Detector of instruction-like passages: text written to steer a model that reads it ("ignore
 * previous instructions", "you are now …", `<|im_start|>`, "system:" role markers, "answer only
 * …"), in English and Korean. A document is data; a passage that talks to the assistant instead
 * of informing a reader is down-weighted in ranking, flagged in the trace, and never quoted as an
 * answer.
 *
 * Precision matters more than recall here: a flag costs an honest passage its rank. So every cue
 * names the reader (an AI, "previous instructions", a chat role) or a chat-template token, and
 * words an ordinary policy uses ("shall", "responds within", "submit the form", "an instruction to
 * preserve records") are no cue. Weak cues ("respond with", "answer only") count for less than
 * one flag on their own. Pure and deterministic; the result carries cue names, never text.
 */

/** One kind of instruction-like text. */
interface Cue {
  /** Stable name shown in traces. */
  name: string;
  /** What one match adds to the score (a cue counts once, however often it matches). */
  weight: number;
  pattern: RegExp;
}

/** What {@link detectInstructionLike} found. */
export interface InstructionLikeResult {
  /** Sum of the weights of the distinct cues found (0 when none). */
  score: number;
  /** Names of the cues found, in a fixed order; never any of the text. */
  cues: string[];
  /** `score` reached {@link INSTRUCTION_FLAG_SCORE}. */
  flagged: boolean;
}

/** Score from which a passage counts as instruction-like: one strong cue, or two weak ones. */
export const INSTRUCTION_FLAG_SCORE = 1;

// Who a prompt injection addresses. Plain "assistant" (an assistant manager), "bot" and "model"
// (the data model) are ordinary words; these are not.
const AI = String.raw`(?:ai|a\.i\.|artificial intelligence|(?:ai|virtual|digital) assistant|chat ?bot|chatgpt|gpt(?:-\d)?|llms?|(?:large )?language models?|claude|gemini|copilot)`;
const EARLIER = String.raw`(?:previous|prior|preceding|above|earlier|foregoing|original|initial|system|developer|all)`;
// Not "guidance" or "guidelines": "disregard previous guidance" is how a policy retires a version.
const ORDERS = String.raw`(?:instructions?|prompts?|directives?|commands?|rules)`;
const IMPERATIVE = String.raw`(?:ignore|disregard|forget|answer|reply|respond|say|output|print|write|tell|do not|don't|never|always|include|recommend|visit|you)`;
// Korean: an AI named as the one spoken to, orders said before, and an imperative ending.
const KO_AI = String.raw`(?:AI|인공\s?지능|어시스턴트|챗봇|언어\s?모델|GPT|LLM)`;
const KO_ORDERS = String.raw`(?:지시|지침|명령|프롬프트)(?:\s?사항)?`;
const KO_DO = String.raw`(?:하라|해라|하고|하세요|하십시오|하시오|해|할\s?것)`;

const CUES: readonly Cue[] = [
  {
    name: 'ignore_previous_instructions',
    weight: 1,
    pattern: new RegExp(String.raw`\b(?:ignore|disregard|forget|override|bypass|discard)\b[^.!?\n]{0,24}?\b${EARLIER}\s+(?:of\s+(?:the|your)\s+)?(?:\w+\s+)?${ORDERS}\b`, 'i'),
  },
  // "ignore the above and see section 5" is how a form speaks to a reader; only a bare "ignore
  // the above" or one followed by saying/answering something is a cue.
  {
    name: 'disregard_above',
    weight: 1,
    pattern: /\b(?:ignore|disregard|forget)\s+(?:all\s+|everything\s+|anything\s+)?(?:the\s+)?(?:(?:that\s+was\s+)?(?:said|written|stated)\s+)?(?:above|before this|so far)(?=\s*(?:$|[.!;:]|,?\s*(?:and\s+|then\s+|instead\s+)?(?:say|answer|respond|reply|output|print|write|tell|follow|obey|do as)\b))/i,
  },
  {
    name: 'role_reassignment',
    weight: 1,
    pattern: new RegExp(
      String.raw`\b(?:you are now|from now on,?\s+you(?:'re| are| will be)|act as|pretend (?:to be|you are)|you will now act as)\s+(?:an?\s+|the\s+|my\s+)?(?:[\w-]+\s+){0,2}?(?:${AI}|assistant|dan|jailbroken|unrestricted|unfiltered|uncensored|in developer mode|no longer bound)\b`,
      'i',
    ),
  },
  { name: 'you_are_now', weight: 0.5, pattern: /\b(?:you are now|from now on,?\s+you)\b/i },
  { name: 'chat_template_token', weight: 1, pattern: /<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id)\|>|\[\/?INST\]|<<\/?SYS>>|###\s*(?:instruction|system|response)\s*:/i },
  // A chat role label opening a line or sentence: weak alone ("Developer: Larkspur Systems"),
  // strong when what follows speaks to the model.
  { name: 'role_marker', weight: 0.5, pattern: /(?:^|[\n.!?]\s*)(?:system|assistant|developer|시스템|어시스턴트)\s*:/im },
  {
    name: 'role_marker_command',
    weight: 1,
    pattern: new RegExp(String.raw`(?:^|[\n.!?]\s*)(?:system|assistant|developer)\s*:\s*(?:${IMPERATIVE}|from now|new instructions)\b`, 'im'),
  },
  {
    name: 'addressed_to_ai',
    weight: 1,
    pattern: new RegExp(String.raw`\b(?:if you are an?|note to (?:the|any)|attention,?|dear|hey|hello|instructions? (?:for|to) (?:the|any)|message (?:for|to) (?:the|any))\s+${AI}s?\b[^.!?\n]{0,80}?\b${IMPERATIVE}\b`, 'i'),
  },
  {
    name: 'prompt_leak',
    weight: 1,
    pattern: /\b(?:reveal|print|show|repeat|output|leak|disclose)\s+(?:me\s+)?(?:your|the)\s+(?:system\s+prompt|hidden\s+prompt|initial\s+prompt|(?:system\s+|hidden\s+)?instructions)\b/i,
  },
  { name: 'new_instructions', weight: 1, pattern: /\b(?:new|updated|real|actual|override)\s+(?:system\s+)?instructions?\s*:/i },
  {
    name: 'answer_only',
    weight: 0.5,
    pattern: /\b(?:answer|reply|respond|say|output|print)\s+(?:only|just|solely|exclusively)\b(?!\s+(?:to|within|in writing|after|if|when|once|by|on)\b)|\bonly\s+(?:answer|reply|respond|say|output)\s+(?:with\b|["'“])/i,
  },
  { name: 'respond_with', weight: 0.4, pattern: /\b(?:respond|reply|answer)\s+(?:to\s+(?:every|any|all|each)\s+(?:question|query|prompt)s?\s+)?with\s+(?:["'“]|the\s+(?:word|phrase|text|link|url)\b)/i },
  { name: 'conceal_from_user', weight: 0.6, pattern: /\b(?:do not|don't|never)\s+(?:tell|inform|mention|reveal|disclose|show)\b[^.!?\n]{0,20}\bthe\s+user\b/i },
  { name: 'ai_mentioned', weight: 0.5, pattern: new RegExp(String.raw`\b${AI}\b`, 'i') },
  // Korean.
  {
    name: 'ko_ignore_previous',
    weight: 1,
    pattern: new RegExp(
      String.raw`(?:이전|앞|위|기존|원래|모든|지금까지)의?\s*(?:모든\s*)?(?:${KO_ORDERS}|내용)\s*(?:은|는|을|를|들을|들은)?\s*(?:모두\s*|전부\s*|다\s*)?(?:무시${KO_DO}|잊어(?:라|버려|버리세요)?|잊으세요|따르지\s*(?:마|말))`,
    ),
  },
  {
    name: 'ko_role_reassignment',
    weight: 1,
    pattern: new RegExp(String.raw`(?:지금부터|이제부터|이제)\s*(?:너|당신|넌)(?:는|은)?\s|(?:너|당신)(?:는|은)\s*이제\s|${KO_AI}(?:은|는|야|에게|님)?[,\s][^.!?\n]{0,40}(?:무시|답|대답|응답|출력|말)${KO_DO}`),
  },
  {
    name: 'ko_answer_only',
    weight: 0.5,
    pattern: /(?:오직|반드시|무조건)\s*[^.!?\n]{0,30}(?:라고만|만)\s*(?:답|대답|응답|출력|말)(?:하라|해라|하세요|하십시오|해|할\s*것)/,
  },
  { name: 'ko_prompt_leak', weight: 1, pattern: /시스템\s*프롬프트/ },
];


/**
 * Words one of which every flagging combination of cues contains (each strong cue's verb, role
 * or addressee, and "the user" for the two weak cues that flag together without one). Most
 * passages have none, and one test of this pattern is far cheaper than every cue: ranking scores
 * ~300 candidates per question.
 */
const ANCHORS = new RegExp(
  [
    String.raw`\b(?:ignore|disregard|forget|override|bypass|discard|pretend|system|assistant|developer|instructions?|prompts?|the user)\b`,
    String.raw`\byou are now\b|\bfrom now on\b|\bact as\b|<\||\[\/?INST\]|<<\/?SYS>>|###`,
    String.raw`\b${AI}\b`,
    String.raw`무시|잊|따르지|너는|넌|당신|프롬프트|시스템|어시스턴트|인공\s?지능|챗봇|언어\s?모델|라고만|만\s*(?:답|대답|응답|출력|말)`,
  ].join('|'),
  'i',
);

// Compatibility forms (full-width letters, odd spaces) and zero-width characters that would hide a cue.
const NEEDS_FOLDING = /[\u00a0\u2000-\u206f\ufe00-\ufe6f\ufeff\uff00-\uffef]/;
const ZERO_WIDTH = /[\u200b-\u200d\u2060\ufeff]/g;

/**
 * Scores `text` for instruction-like cues (see the module comment). Each cue counts once; the
 * score is the sum of the weights of those found, and the text is flagged from
 * {@link INSTRUCTION_FLAG_SCORE} on. `ai_mentioned` alone (a policy on AI use) and the other weak
 * cues alone never flag. A text without any anchor word (see `ANCHORS`) cannot reach the flag
 * score and is reported as score 0 without its weak cues.
 */
export function detectInstructionLike(text: string): InstructionLikeResult {
  // Spacing and case of the PDF's text layer vary; cues should not.
  const folded = NEEDS_FOLDING.test(text) ? text.normalize('NFKC').replace(ZERO_WIDTH, '') : text;
  if (!ANCHORS.test(folded)) return { score: 0, cues: [], flagged: false };
  const t = folded.replace(/[ \t]+/g, ' ');
  const cues: string[] = [];
  let score = 0;
  for (const cue of CUES) {
    if (cue.pattern.test(t)) {
      cues.push(cue.name);
      score += cue.weight;
    }
  }
  score = Math.round(score * 100) / 100;
  return { score, cues, flagged: score >= INSTRUCTION_FLAG_SCORE };
}
