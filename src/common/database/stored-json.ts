/** A JSON text column as stored in the app DB, parsed; `fallback` when it is empty or (hand-edited) not JSON. */
export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (text === null || text === undefined || text === '') return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}
