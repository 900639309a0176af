/**
 * What facet values mean, in words an embedder can match a question against. A value the
 * glossary does not know still gets a generic description from its own words; the glossary
 * only adds the paraphrases people use when they ask ("who qualifies" for `eligibility`,
 * "누가 받을 수 있나요" for `지원 대상`), in English and Korean, so a question in either language
 * lands near the value whatever language the corpus labels it in.
 */

/** A kind of section, recognised by heading keywords in English or Korean. */
export interface SectionConcept {
  /** Heading words that name this kind of section (lower case; Korean without particles). */
  keywords: readonly string[];
  /** The meaning in English, continuing "This is a section label meaning …". */
  en: string;
  /** The meaning in Korean, continuing "… 절(섹션) 제목입니다: …". */
  ko: string;
}

/** Kinds of sections found in laws, policies, guidelines, FAQs and standards. */
export const SECTION_CONCEPTS: readonly SectionConcept[] = [
  {
    keywords: ['eligibility', 'eligible', 'who is eligible', 'who qualifies', 'qualification', 'qualifications', 'coverage', 'covered employees', 'beneficiaries', '대상', '지원 대상', '지급 대상', '적용 대상', '대상자', '대상 직원', '자격', '수급 자격', '신청 자격', '자격 요건', '요건'],
    en: 'eligibility criteria: who is eligible, who qualifies, who is covered and which conditions must be met to receive a benefit',
    ko: '지원 대상과 자격 요건: 누가 받을 수 있는지, 누구에게 지급하는지, 어떤 조건을 갖추어야 하는지',
  },
  {
    keywords: ['purpose', 'purposes', 'objective', 'objectives', 'aim', 'aims', 'introduction', 'overview', '목적', '개요'],
    en: 'the purpose of the document: why it exists and what it aims to achieve',
    ko: '문서의 목적: 왜 만들어졌고 무엇을 이루려 하는지',
  },
  {
    keywords: ['scope', 'applicability', 'application scope', '적용 범위', '범위', '적용'],
    en: 'the scope: to whom, to what and where the rules apply',
    ko: '적용 범위: 누구에게, 무엇에, 어디에 적용되는지',
  },
  {
    keywords: ['definitions', 'definition', 'terms', 'terminology', 'glossary', 'interpretation', '정의', '용어', '용어의 정의'],
    en: 'definitions of terms: what the words used in the document mean',
    ko: '용어의 정의: 문서에서 쓰는 말의 뜻',
  },
  {
    keywords: ['amount', 'amounts', 'benefit', 'benefits', 'entitlement', 'leave entitlement', 'allowance', 'rates', '금액', '지원 금액', '지원 내용', '급여', '수당', '혜택'],
    en: 'benefit amounts and entitlements: how much is paid or granted and for how long',
    ko: '지원 금액과 내용: 얼마를 얼마 동안 받는지',
  },
  {
    keywords: ['application', 'applications', 'how to apply', 'apply', 'applying', 'request', 'requests', 'procedure', 'procedures', 'process', 'submission', 'required documents', 'approval', '신청', '신청 방법', '신청 기간', '신청 장소', '신청 및 승인 절차', '절차', '구비 서류', '제출', '승인'],
    en: 'how to apply: the application procedure, deadlines, where to submit and which documents are required',
    ko: '신청 방법: 신청 절차, 기한, 신청 장소와 필요한 서류',
  },
  {
    keywords: ['payment', 'payments', 'disbursement', 'payment method', '지급', '지급 방법', '지급 시기', '지급 방법 및 시기'],
    en: 'payment: how and when the money is paid out',
    ko: '지급 방법과 시기: 돈을 어떻게, 언제 지급하는지',
  },
  {
    keywords: ['restrictions', 'restriction', 'limitations', 'exclusions', 'exceptions', 'exception', 'recovery', 'clawback', 'penalties', 'sanctions', 'prohibited', '제한', '환수', '제외', '예외', '벌칙', '과태료', '금지'],
    en: 'restrictions and exceptions: who is excluded, what is not allowed, penalties and repayment',
    ko: '제한과 예외: 제외되는 경우, 금지 사항, 벌칙과 환수',
  },
  {
    keywords: ['contact', 'contacts', 'inquiries', 'questions', 'help', 'support contact', '문의', '문의처', '연락처'],
    en: 'contact information: where to ask questions and get help',
    ko: '문의처: 궁금한 점을 어디에 묻고 도움을 받는지',
  },
  {
    keywords: ['effective date', 'commencement', 'transitional provisions', 'transition', 'addenda', 'supplementary provisions', '부칙', '시행일', '경과 조치', '시행'],
    en: 'effective date and transitional provisions: when the rules take effect and how old cases are handled',
    ko: '부칙: 시행일과 경과 조치, 언제부터 효력이 생기는지',
  },
  {
    keywords: ['general provisions', 'general', '총칙'],
    en: 'general provisions: the purpose, definitions and basic rules that the rest builds on',
    ko: '총칙: 목적, 정의와 기본 원칙',
  },
  {
    keywords: ['roles', 'responsibilities', 'roles and responsibilities', 'duties', 'obligations', 'accountability', '책무', '의무', '역할', '책임'],
    en: 'roles and responsibilities: who must do what',
    ko: '책무와 역할: 누가 무엇을 해야 하는지',
  },
  {
    keywords: ['security', 'information security', 'confidentiality', 'privacy', 'data protection', '보안', '정보보안', '개인정보', '정보 보호'],
    en: 'security and privacy: protecting information, devices and personal data',
    ko: '보안과 개인정보 보호: 정보, 기기, 개인정보를 지키는 방법',
  },
  {
    keywords: ['retention', 'retention schedule', 'records', 'disposal', 'disposal methods', 'archives', 'backups', 'erasure', 'requests for erasure', 'legal holds', '보존', '보관', '파기', '삭제'],
    en: 'records retention and disposal: how long records are kept and how they are destroyed',
    ko: '기록 보존과 파기: 얼마나 오래 보관하고 어떻게 없애는지',
  },
  {
    keywords: ['working hours', 'hours', 'schedule', 'work arrangements', 'remote work', 'hybrid work', 'remote and hybrid work', 'attendance', '근무', '근무시간', '근무 형태', '근무시간 및 복무', '복무', '재택근무'],
    en: 'working arrangements: working hours, attendance, remote and hybrid work',
    ko: '근무 형태와 근무시간: 재택근무, 출퇴근, 복무',
  },
  {
    keywords: ['leave', 'parental leave', 'maternity leave', 'paternity leave', 'vacation', 'time off', 'recovery leave', '휴가', '휴직', '육아휴직', '출산휴가'],
    en: 'leave: time off work, parental leave and how long it lasts',
    ko: '휴가와 휴직: 육아휴직, 출산휴가와 그 기간',
  },
  {
    keywords: ['costs', 'cost', 'expenses', 'reimbursement', 'stipend', 'equipment', '비용', '비용 지원', '경비'],
    en: 'costs and reimbursement: which expenses are paid or reimbursed',
    ko: '비용 지원: 어떤 비용을 대 주거나 돌려주는지',
  },
  {
    keywords: ['review', 'revision', 'amendment', 'amendments', 'changes', 'termination', 'change and termination', '변경', '종료', '개정', '검토'],
    en: 'review, changes and termination: how the rules or an arrangement are revised or ended',
    ko: '변경과 종료: 규정이나 결정을 바꾸거나 끝내는 방법',
  },
  {
    keywords: ['principles', 'principle', 'policy statement', '원칙', '기본 원칙'],
    en: 'principles: the basic commitments the rest of the document follows',
    ko: '원칙: 문서 전체가 따르는 기본 방침',
  },
  {
    keywords: ['support', 'support services', 'services', 'assistance', 'childcare', '양육 지원', '출산 지원', '지원', '서비스', '돌봄'],
    en: 'support services: the help, care and services offered',
    ko: '지원 서비스: 제공되는 도움과 돌봄 서비스',
  },
];

/** Known document types: meaning (English) and the Korean words for it. */
export const DOC_TYPES: Readonly<Record<string, { en: string; ko: string; aliases: readonly string[] }>> = {
  law: { en: 'laws, acts and statutes: binding legal rules organised in chapters and articles', ko: '법률, 법령, 조례: 장과 조로 된 구속력 있는 규정', aliases: ['act', 'statute', 'legislation', '법률', '법령', '법'] },
  regulation: { en: 'regulations and ordinances: binding rules issued under a law', ko: '시행령, 규칙, 조례', aliases: ['ordinance', 'decree', '시행령', '규칙', '조례'] },
  policy: { en: 'organisational policies: rules an organisation sets for its people and operations', ko: '정책, 사내 규정', aliases: ['policies', 'rules', '정책', '규정'] },
  guideline: { en: 'guidelines: how a programme or rule is carried out in practice', ko: '지침, 운영 지침, 가이드라인', aliases: ['guidelines', 'guidance', 'guide', '지침', '가이드라인'] },
  faq: { en: 'frequently asked questions: short questions with plain answers', ko: '자주 묻는 질문과 답변', aliases: ['faqs', 'questions and answers', 'q&a', '자주 묻는 질문', '질의응답'] },
  standard: { en: 'technical standards, specifications and protocols', ko: '표준, 규격, 기술 명세', aliases: ['specification', 'spec', 'protocol', '표준', '규격'] },
  rfc: { en: 'Internet RFCs: technical specifications of network protocols', ko: '인터넷 표준 문서(RFC)', aliases: ['request for comments', 'internet standard', '인터넷 표준'] },
  manual: { en: 'manuals and handbooks: how to do things step by step', ko: '매뉴얼, 안내서, 편람', aliases: ['handbook', 'guide', '매뉴얼', '안내서'] },
  contract: { en: 'contracts and agreements between parties', ko: '계약서, 약관', aliases: ['agreement', 'terms', '계약', '약관'] },
  report: { en: 'reports: findings, analysis and results', ko: '보고서', aliases: ['study', 'analysis', '보고서'] },
  label: { en: 'product labels and package inserts: usage, dosage and warnings', ko: '제품 표시, 사용 설명, 주의 사항', aliases: ['package insert', 'product label', '라벨', '설명서'] },
};

/** Jurisdiction codes: English names, Korean name. Codes not listed fall back to Intl names. */
export const JURISDICTIONS: Readonly<Record<string, { en: readonly string[]; ko: string }>> = {
  KR: { en: ['Republic of Korea', 'South Korea', 'Korea'], ko: '대한민국, 한국' },
  US: { en: ['United States', 'USA', 'America'], ko: '미국' },
  EU: { en: ['European Union', 'Europe'], ko: '유럽연합, 유럽' },
  UK: { en: ['United Kingdom', 'Britain'], ko: '영국' },
  GB: { en: ['United Kingdom', 'Great Britain'], ko: '영국' },
  JP: { en: ['Japan'], ko: '일본' },
  CN: { en: ['China'], ko: '중국' },
  DE: { en: ['Germany'], ko: '독일' },
  FR: { en: ['France'], ko: '프랑스' },
  INT: { en: ['international', 'worldwide'], ko: '국제' },
};

/** Language codes: English name, Korean name, the name in the language itself. */
export const LANGUAGES: Readonly<Record<string, { en: string; ko: string; native: string }>> = {
  en: { en: 'English', ko: '영어', native: 'English' },
  ko: { en: 'Korean', ko: '한국어', native: '한국어' },
  ja: { en: 'Japanese', ko: '일본어', native: '日本語' },
  zh: { en: 'Chinese', ko: '중국어', native: '中文' },
  de: { en: 'German', ko: '독일어', native: 'Deutsch' },
  fr: { en: 'French', ko: '프랑스어', native: 'français' },
  es: { en: 'Spanish', ko: '스페인어', native: 'español' },
};

/** Values that say "nobody knows": a prior on them means nothing, so they get no vector. */
export const UNINFORMATIVE_VALUES: ReadonlySet<string> = new Set(['', 'unknown', 'und', 'n/a', 'none']);
