import { allowedSdkOrigin, popupOrigin, popupPage, popupReturnTo } from './sdk-popup';

describe('SAML popup hand-off for the embedding SDK', () => {
  it('allows the origins of the SDK setting, localhost and our own; nothing else', () => {
    const setting = 'https://app.example.com *.customer.test';
    expect(allowedSdkOrigin('https://app.example.com', setting, undefined)).toBe('https://app.example.com');
    expect(allowedSdkOrigin('https://eu.customer.test', setting, undefined)).toBe('https://eu.customer.test');
    expect(allowedSdkOrigin('http://localhost:5173', '', undefined)).toBe('http://localhost:5173');
    expect(allowedSdkOrigin('https://analytics.example.com', '', 'https://analytics.example.com')).toBe('https://analytics.example.com');
    expect(allowedSdkOrigin('https://evil.test', setting, undefined)).toBeNull();
    expect(allowedSdkOrigin('https://app.example.com.evil.test', setting, undefined)).toBeNull();
    expect(allowedSdkOrigin(undefined, setting, undefined)).toBeNull();
    expect(allowedSdkOrigin('null', '*', undefined)).toBeNull();
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
