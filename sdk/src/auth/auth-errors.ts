/** A failed sign-in or API call, with a message meant for the host app's developer (shown by the error state). */
export class AnalyticsAuthError extends Error {
  constructor(
    message: string,
    /** HTTP status of the answer that failed, when there was one. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'AnalyticsAuthError';
  }
}

/** The `message` of an error answer (`{message}`, `{status:'error', message}`, or text), else a fallback. */
export async function answerMessage(res: Response, fallback: string): Promise<string> {
  try {
    const text = await res.text();
    try {
      const body = JSON.parse(text) as unknown;
      if (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string')
        return (body as { message: string }).message;
    } catch {
      /* not JSON */
    }
    if (text && text.length < 300 && !/^\s*</.test(text)) return text.trim();
  } catch {
    /* unreadable body */
  }
  return fallback;
}
