import { browserSamlLogin, SAML_MESSAGE_TYPE, SamlPrompt } from './saml-popup';

const ORIGIN = 'https://analytics.example.com';
const SESSION = { id: 'session-key', exp: 4_102_444_800 };

/** A window whose `open` answers the popups the test says, and whose message listeners the test can call. */
function fakeWindow(popups: Array<object | null>) {
  const listeners = new Set<(e: MessageEvent) => void>();
  const open = jest.fn(() => popups.shift() ?? null);
  (globalThis as { window?: unknown }).window = {
    open,
    addEventListener: (_: string, l: (e: MessageEvent) => void) => listeners.add(l),
    removeEventListener: (_: string, l: (e: MessageEvent) => void) => listeners.delete(l),
  };
  const post = (source: object, data: unknown, origin = ORIGIN) => {
    for (const l of [...listeners]) l({ source, data, origin } as MessageEvent);
  };
  return { open, post, listeners };
}

describe('browserSamlLogin', () => {
  afterEach(() => delete (globalThis as { window?: unknown }).window);

  it('opens the popup and takes the session its page posts from the analytics origin only', async () => {
    const popup = { closed: false };
    const w = fakeWindow([popup]);
    const login = browserSamlLogin(`${ORIGIN}/`)('https://idp.example.com/sso');
    w.post(popup, { type: SAML_MESSAGE_TYPE, session: { id: 'forged', exp: 1 } }, 'https://evil.example.com');
    w.post(popup, { type: SAML_MESSAGE_TYPE, session: SESSION });
    await expect(login).resolves.toEqual(SESSION);
    expect(w.open).toHaveBeenCalledWith('https://idp.example.com/sso', 'analytics-saml-login', expect.any(String));
    expect(w.listeners.size).toBe(0);
  });

  it('waits for a click when the browser blocks the popup, then opens it from the click', async () => {
    const popup = { closed: false };
    const w = fakeWindow([null, popup]);
    const prompt = new SamlPrompt();
    const changes = jest.fn();
    prompt.subscribe(changes);
    const login = browserSamlLogin(ORIGIN, prompt)('https://idp.example.com/sso');
    expect(prompt.waiting).toBe(true);
    expect(w.open).toHaveBeenCalledTimes(1);
    prompt.open();
    expect(prompt.waiting).toBe(false);
    expect(changes).toHaveBeenCalledTimes(2);
    expect(w.open).toHaveBeenCalledTimes(2);
    w.post(popup, { type: SAML_MESSAGE_TYPE, session: SESSION });
    await expect(login).resolves.toEqual(SESSION);
  });

  it('fails when the popup is blocked and nobody can click, or is blocked on the click too', async () => {
    fakeWindow([null]);
    await expect(browserSamlLogin(ORIGIN)('https://idp.example.com/sso')).rejects.toThrow(/blocked by the browser/);
    fakeWindow([null, null]);
    const prompt = new SamlPrompt();
    const login = browserSamlLogin(ORIGIN, prompt)('https://idp.example.com/sso');
    prompt.open();
    await expect(login).rejects.toThrow(/blocked by the browser/);
  });

  it('takes a message that arrives just after the popup shows closed, and fails a popup closed without one', async () => {
    jest.useFakeTimers();
    try {
      const popup = { closed: false };
      const w = fakeWindow([popup, popup]);
      const late = browserSamlLogin(ORIGIN)('https://idp.example.com/sso');
      popup.closed = true;
      jest.advanceTimersByTime(800);
      w.post(popup, { type: SAML_MESSAGE_TYPE, session: SESSION });
      await expect(late).resolves.toEqual(SESSION);

      popup.closed = false;
      const abandoned = browserSamlLogin(ORIGIN)('https://idp.example.com/sso');
      popup.closed = true;
      // Attached before the timers run, so the rejection is handled when it happens; awaited below.
      // eslint-disable-next-line jest/valid-expect
      const failed = expect(abandoned).rejects.toThrow(/closed before the login finished/);
      jest.advanceTimersByTime(3_000);
      await failed;
      expect(w.listeners.size).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});
