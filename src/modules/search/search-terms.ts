/** The words of a text as the search index keeps them: lower case, split on anything that is not a letter or digit. */
export function searchWords(text: string | null | undefined): string[] {
  if (!text) return [];
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  return [...new Set(words.map((w) => w.slice(0, 254)))];
}
