import type { EmbeddingOrigins } from '../../../common/http/origin-policy';
import { allowedSdkOrigin, popupOrigin, popupPage, popupReturnTo } from './sdk-popup';

const SDK_ON: EmbeddingOrigins = {
  sdk: true,
  sdkOrigins: 'https://app.example.com *.customer.test',
  interactive: false,
  interactiveOrigins: null,
  siteUrl: null,
};

describe('SAML popup hand-off for the embedding SDK', () => {
  it('allows the origins named in the SDK setting and our own; nothing else', () => {
    expect(allowedSdkOrigin('https://app.example.com', SDK_ON, undefined)).toBe('https://app.example.com');
    expect(allowedSdkOrigin('https://eu.customer.test', SDK_ON, undefined)).toBe('https://eu.customer.test');
    expect(allowedSdkOrigin('https://analytics.example.com', { ...SDK_ON, sdkOrigins: '' }, 'https://analytics.example.com')).toBe(
      'https://analytics.example.com',
    );
    expect(allowedSdkOrigin('https://evil.test', SDK_ON, undefined)).toBeNull();
    expect(allowedSdkOrigin('https://app.example.com.evil.test', SDK_ON, undefined)).toBeNull();
    expect(allowedSdkOrigin(undefined, SDK_ON, undefined)).toBeNull();
    expect(allowedSdkOrigin('null', { ...SDK_ON, sdkOrigins: '*' }, undefined)).toBeNull();
    expect(allowedSdkOrigin('https://app.example.com', { ...SDK_ON, sdk: false }, undefined)).toBeNull();
  });

  it('never hands a session to an origin only `*` lets in: the wildcard gets no credentials', () => {
    expect(allowedSdkOrigin('https://evil.test', { ...SDK_ON, sdkOrigins: '*' }, undefined)).toBeNull();
    expect(allowedSdkOrigin('https://app.example.com', { ...SDK_ON, sdkOrigins: 'https://app.example.com *' }, undefined)).toBe(
      'https://app.example.com',
    );
  });

  it('allows localhost in development only: not with an https site URL, not in production', () => {
    const dev = { ...SDK_ON, sdkOrigins: '' };
    expect(allowedSdkOrigin('http://localhost:5173', dev, undefined)).toBe('http://localhost:5173');
    expect(allowedSdkOrigin('http://localhost:5173', { ...dev, siteUrl: 'https://analytics.example.com' }, undefined)).toBeNull();
    const env = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      expect(allowedSdkOrigin('http://127.0.0.1:5173', dev, undefined)).toBeNull();
    } finally {
      process.env.NODE_ENV = env;
    }
  });

  it('carries the origin through the pending request, and reads only its own marker back', () => {
    expect(popupOrigin(popupReturnTo('https://app.example.com'))).toBe('https://app.example.com');
    expect(popupOrigin('/dashboard/1')).toBeNull();
    expect(popupOrigin(null)).toBeNull();
    expect(popupOrigin('sdk-popup:javascript:alert(1)')).toBeNull();
  });

  it('posts the session to that origin only, with nothing able to end the script early', () => {
    const page = popupPage('https://app.example.com', 'abc</script><script>x');
    expect(page).toContain('window.opener.postMessage(d.message,d.origin)');
    expect(page).toContain('"origin":"https://app.example.com"');
    expect(page).not.toContain('abc</script>');
    expect(page).toContain('abc\\u003c/script>');
  });
});
