// v1 addresses in plain text (scripts, configs, docs): where each one starts and ends on a line,
// its path after `/v1` with template placeholders read as path parameters, and the HTTP method
// the surrounding command names, if any. No parser: these files come in every language.
import { V1_HOST } from "../mappings/bases.ts";

export interface TextUrl {
  /** 0-based offset of the URL (its scheme, or the host when there is none) in the line. */
  start: number;
  end: number;
  /** Path after `/v1` with placeholders as `{…}` (`""` for the bare base), or null when the URL is not under `/v1`. */
  path: string | null;
  /** The URL continues at run time (`"…/pods/" + id`, `"…/v1" . $path`). */
  continued: boolean;
}

export const PLACEHOLDER = "{…}";
const HOST_RE = new RegExp(`(?<![\\w.-])${V1_HOST.replace(/\./g, "\\.")}(?![\\w-]|\\.[A-Za-z0-9])`, "g");
/** Ends a URL outside placeholders. `>` also ends one, except in `<pod-id>`. */
const STOP = /[\s"'`),>\]|;\\]/;
/** Sentence punctuation after a URL in prose is not part of it. */
const TRAILING = /[.:!?]+$/;
/** A segment that is a template placeholder: `$POD_ID`, `${POD_ID}`, `{podId}`, `<pod-id>`, `{{ .id }}`, `%s`, `:id`, `#{id}`, `$(ID)`. */
const PLACEHOLDER_SEGMENT = /[$%{}<>]|^:|#\{/;

/** Every address of the v1 host on one line. */
export function findV1Urls(line: string): TextUrl[] {
  const out: TextUrl[] = [];
  let resumeAt = 0;
  for (const m of line.matchAll(HOST_RE)) {
    if (m.index < resumeAt) continue;
    const hostAt = m.index;
    const scheme = /https?:\/\/$/i.exec(line.slice(Math.max(0, hostAt - 8), hostAt));
    const start = scheme ? hostAt - scheme[0].length : hostAt;
    let end = urlEnd(line, hostAt + V1_HOST.length);
    const raw = line.slice(hostAt + V1_HOST.length, end);
    const trimmed = raw.replace(TRAILING, "");
    end -= raw.length - trimmed.length;
    resumeAt = end;
    const tail = concatenatedTail(line, end, trimmed);
    out.push({ start, end, path: v1Path(trimmed + tail.text), continued: tail.open });
  }
  return out;
}

const QUOTES = `"'\``;
/** A concatenation operator: `+` (JS, Python, Java, C#…), `.` (PHP, Perl; only before a variable or a string), `..` (Lua). */
const JOIN = /^\s*(?:\+|\.\.|\.(?=\s*[$"']))\s*/;
const LITERAL = /^(["'`])([^"'`]*)\1/;
const OPERAND = /^[$@]?[\w.]+(?:\[[^\]]*\]|\([^()]*\))*/;

/**
 * What a quoted URL is joined to on the rest of the line: `"…/pods/" + id + "/start"` adds
 * `{…}/start`. `open` when a run-time value follows something other than a `/` (the rest of the
 * path is unknown: `"…/v1" + path`).
 */
function concatenatedTail(line: string, end: number, url: string): { text: string; open: boolean } {
  if (!QUOTES.includes(line[end] ?? "")) return { text: "", open: false };
  let rest = line.slice(end + 1);
  let text = "";
  for (;;) {
    const join = JOIN.exec(rest);
    if (!join) break;
    rest = rest.slice(join[0].length);
    const literal = LITERAL.exec(rest);
    const operand = literal ? undefined : OPERAND.exec(rest);
    if (literal) text += literal[2]!;
    else if (operand && (url + text).endsWith("/")) text += "{x}";
    else if (operand) return { text, open: true };
    else break;
    rest = rest.slice((literal ?? operand)![0].length);
    if (/[?#\s]/.test(text)) break; // the query string or something that is no longer a path
  }
  return { text, open: false };
}

/** Offset where a URL starting its path at `from` ends; `{…}`, `{{ … }}`, `$(…)` and `<id>` are kept whole. */
function urlEnd(line: string, from: number): number {
  let i = from;
  while (i < line.length) {
    const c = line[i]!;
    if (c === "{") {
      const close = line.startsWith("{{", i) ? line.indexOf("}}", i + 2) : line.indexOf("}", i + 1);
      if (close < 0) break;
      i = close + (line.startsWith("{{", i) ? 2 : 1);
    } else if (c === "$" && line[i + 1] === "(") {
      const close = line.indexOf(")", i + 2);
      if (close < 0) break;
      i = close + 1;
    } else if (c === "<") {
      const m = /^<[\w.-]+>/.exec(line.slice(i));
      if (!m) break;
      i += m[0].length;
    } else if (STOP.test(c)) break;
    else i++;
  }
  return i;
}

/** The part after the host: `/v1/pods/$ID/start?x=1` → `/pods/{…}/start`; `""` for the base; null off `/v1`. */
function v1Path(afterHost: string): string | null {
  const m = /^(?::\d+)?\/v1(?=$|[/?#])(.*)$/.exec(afterHost);
  if (!m) return null;
  const pathOnly = m[1]!.replace(/\?.*$|#(?!\{).*$/, ""); // the query and fragment (not Ruby's `#{id}`)
  const segments = pathOnly.split("/").filter(Boolean);
  return segments.map((s) => "/" + (PLACEHOLDER_SEGMENT.test(s) ? PLACEHOLDER : s)).join("") + (pathOnly.endsWith("/") && segments.length ? "/" : "");
}

const METHODS = "GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS";
const EXPLICIT: RegExp[] = [
  // curl -X POST, -XPOST, --request PATCH, --request=PATCH; wget --method=DELETE; httpie is below
  new RegExp(`(?:^|\\s)(?:-X\\s*|--request[\\s=]+|--method[\\s=]+)["']?(${METHODS})\\b`, "i"),
  // PowerShell: Invoke-RestMethod -Method Post
  new RegExp(`(?:^|\\s)-Method\\s+["']?(${METHODS})\\b`, "i"),
  // method: POST, "method": "POST", method="POST", :method => 'post'
  new RegExp(`\\bmethod["']?\\s*(?:[:=]>?|=>)\\s*["']?(${METHODS})\\b`, "i"),
  // requests.request("POST", …), http.NewRequest("DELETE", …), fetch-like APIs taking the method first
  new RegExp(`\\b\\w*request\\w*\\s*\\(\\s*["'](${METHODS})["']`, "i"),
  // requests.post(, httpx.delete(, session.patch(, http.Get(, Net::HTTP::Post.new
  new RegExp(`(?:\\.|::)(${METHODS})(?:_async)?\\s*(?:\\(|\\.new\\b)`, "i"),
];

/**
 * The HTTP method a line (a logical line: shell continuations joined) sends to the URL at
 * `urlStart`, or undefined when it does not say.
 */
export function methodOnLine(line: string, urlStart: number): string | undefined {
  // `POST https://…` (.http files, HTTPie, Markdown prose): the method word right before the URL.
  const before = new RegExp(`\\b(${METHODS})\\s+$`).exec(line.slice(0, urlStart).replace(/--url\s+$|["'`]$/g, ""));
  if (before) return before[1]!.toUpperCase();
  for (const re of EXPLICIT) {
    const m = re.exec(line);
    if (m) return m[1]!.toUpperCase();
  }
  if (/\bcurl\b/.test(line)) {
    if (/(?:^|\s)(?:-d|--data(?:-raw|-binary|-urlencode|-ascii)?|--json|-F|--form)(?=[\s='"]|$)/.test(line)) return "POST";
    if (/(?:^|\s)(?:-T|--upload-file)(?=\s|$)/.test(line)) return "PUT";
    if (/(?:^|\s)(?:-I|--head)(?=\s|$)/.test(line)) return "HEAD";
    return "GET";
  }
  if (/\bwget\b/.test(line)) return /--post-(?:data|file)\b/.test(line) ? "POST" : "GET";
  return undefined;
}

const METHOD_KEY = EXPLICIT[2]!;
const BLOCK_REACH = 8;

/**
 * The method a structured block gives the URL on line `i` (Ansible `uri`, Terraform `http`,
 * JSON/TOML request records): a sibling `method` key at the URL line's indentation, within the
 * block (no blank line, no shallower line in between). A Terraform `data "http"` block without
 * one is a GET.
 */
export function methodInBlock(lines: readonly string[], i: number): string | undefined {
  const indent = (l: string) => /^\s*/.exec(l)![0].length;
  const own = indent(lines[i]!);
  const sibling = (l: string) => indent(l) === own && !l.includes(V1_HOST);
  for (const step of [1, -1]) {
    for (let k = i + step, n = 0; k >= 0 && k < lines.length && n < BLOCK_REACH; k += step, n++) {
      const l = lines[k]!;
      if (!l.trim()) break;
      if (indent(l) < own) {
        if (step < 0 && /^\s*data\s+"http"/.test(l)) return "GET"; // no sibling below either
        break;
      }
      const m = sibling(l) ? METHOD_KEY.exec(l) : null;
      if (m) return m[1]!.toUpperCase();
      if (step < 0 && /^\s*- /.test(l)) break; // the start of this YAML list item
    }
  }
  return undefined;
}
