// Nesting depth of JSON text, checked before parsing: deeply nested input parses fine but then
// overflows the stack of whatever walks it (validation, lenses, JSON.stringify on the way upstream).

/** True when objects/arrays in `text` nest deeper than `limit` (brackets inside strings do not count). */
export function exceedsJsonDepth(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
