// Finds the sentences of an OpenAPI document's prose that state a rule ("rejected with 400",
// "mutually exclusive", "fixed at create", "must", "only", …). The sandbox's rule accounting
// (sandbox/rules/accounting.ts) must account for every one, so a new rule in the published v2
// document fails a test instead of slipping past the sandbox unnoticed.
import { createHash } from "node:crypto";

export type RuleSentence = {
  /** Stable key: JSON pointer of the description + a hash of the normalised sentence. */
  id: string;
  /** JSON pointer of the `description` (or `info/description`) the sentence comes from. */
  pointer: string;
  /** The sentence, whitespace collapsed. */
  sentence: string;
};

/** Words that make a sentence state a rule rather than describe a field. */
const RULE_WORDS =
  /\b(reject(?:ed|s)?|invalid|not supported|unsupported|mutually exclusive|required|requires?|must|only|minimum|maximum|at least|at most|fixed at|immutable|replaces?|replacement|cannot|disallowed|not allowed|exactly one|floor|never|not changeable|valid only|clears?|allows?|transitions?|stays|retain|0\.0 when|40[0-9]|422|429)\b/i;

/** Abbreviations after which a full stop does not end a sentence. */
const ABBREVIATIONS = /(?:\be\.g|\bi\.e|\bvs|\betc)\.$/i;

/** Collapses whitespace so re-wrapping a description does not change a sentence's identity. */
export function normaliseSentence(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}

export function sentenceId(pointer: string, sentence: string): string {
  const hash = createHash("sha256").update(normaliseSentence(sentence).toLowerCase()).digest("hex").slice(0, 10);
  return `${pointer}#${hash}`;
}

/** Paragraphs and list items are separate blocks; lines inside a block are joined. */
function blocks(text: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length) out.push(current.join(" "));
    current = [];
  };
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (trimmed === "" || /^#+\s/.test(trimmed)) {
      flush();
      if (trimmed) out.push(trimmed);
      continue;
    }
    if (/^[-*]\s/.test(trimmed)) flush();
    current.push(trimmed);
  }
  flush();
  return out;
}

/** Splits prose into sentences: a full stop, ! or ? followed by a space and a capital, a backtick or a quote. */
export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  for (const block of blocks(text)) {
    const b = normaliseSentence(block);
    let start = 0;
    for (let i = 0; i < b.length; i++) {
      const c = b[i];
      if ((c === "." || c === "!" || c === "?") && b[i + 1] === " " && /[A-Z`"*(\[]/.test(b[i + 2] ?? "")) {
        const candidate = b.slice(start, i + 1);
        if (ABBREVIATIONS.test(candidate)) continue;
        sentences.push(candidate.trim());
        start = i + 2;
      }
    }
    const rest = b.slice(start).trim();
    if (rest) sentences.push(rest);
  }
  return sentences;
}

export function isRuleSentence(sentence: string): boolean {
  return RULE_WORDS.test(sentence);
}

function escapePointer(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * Every rule-like sentence of every `description` in the document (operations, parameters,
 * responses, schemas, properties, info), in document order.
 */
export function ruleSentences(doc: unknown): RuleSentence[] {
  const found: RuleSentence[] = [];
  const seen = new Set<string>();
  const walk = (node: unknown, pointer: string) => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, `${pointer}/${i}`));
      return;
    }
    if (!node || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      const here = `${pointer}/${escapePointer(key)}`;
      // `examples` hold sample data, not prose.
      if (key === "examples" || key === "example") continue;
      if (key === "description" && typeof value === "string") {
        for (const sentence of splitSentences(value)) {
          if (!isRuleSentence(sentence)) continue;
          const id = sentenceId(pointer, sentence);
          if (seen.has(id)) continue;
          seen.add(id);
          found.push({ id, pointer, sentence });
        }
      } else {
        walk(value, here);
      }
    }
  };
  walk(doc, "");
  return found;
}
