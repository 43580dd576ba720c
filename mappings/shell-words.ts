// POSIX-shell-style quoting for v1 argv arrays ⇄ v2's single `args` string.
// Quoting is chosen so that split(join(argv)) returns argv exactly.

const SAFE_TOKEN = /^[A-Za-z0-9_@%+=:,./-]+$/;

export function quoteWord(word: string): string {
  if (SAFE_TOKEN.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export function joinWords(words: readonly string[]): string {
  return words.map(quoteWord).join(" ");
}

/** Splits a command line the way a POSIX shell would for words (no expansion). */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let current = "";
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const ch = line[i]!;
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error("unterminated single quote in args");
      current += line.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (ch === '"') {
      i++;
      while (i < line.length && line[i] !== '"') {
        if (line[i] === "\\" && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) i++;
        current += line[i];
        i++;
      }
      if (i >= line.length) throw new Error("unterminated double quote in args");
      inWord = true;
      i++;
    } else if (ch === "\\" && i + 1 < line.length) {
      current += line[i + 1];
      inWord = true;
      i += 2;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(current);
      current = "";
      inWord = false;
      i++;
    } else {
      current += ch;
      inWord = true;
      i++;
    }
  }
  if (inWord) words.push(current);
  return words;
}
