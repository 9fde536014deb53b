import { loggablePath } from './loggable-path';

describe('loggablePath', () => {
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJyZXNvdXJjZSI6eyJxdWVzdGlvbiI6MX0sInBhcmFtcyI6e319.c2lnbmF0dXJlX2hlcmU';

  it('hides an embed token wherever it sits in the path', () => {
    expect(loggablePath(`/api/embed/card/${jwt}/query`)).toBe('/api/embed/card/<token>/query');
    expect(loggablePath(`/api/preview-embed/dashboard/${jwt}/dashcard/3/card/4`)).toBe('/api/preview-embed/dashboard/<token>/dashcard/3/card/4');
    expect(loggablePath(`/embed/question/${jwt}`)).toBe('/embed/question/<token>');
  });

  it('leaves other paths as they are, dotted file names included', () => {
    expect(loggablePath('/api/card/12/query/csv')).toBe('/api/card/12/query/csv');
    expect(loggablePath('/app/main.3f2a1b.js')).toBe('/app/main.3f2a1b.js');
    expect(loggablePath('/api/public/card/8c1b4f0e-4b9e-4c57-9a41-1f3c0f0b2f6a')).toBe('/api/public/card/8c1b4f0e-4b9e-4c57-9a41-1f3c0f0b2f6a');
  });
});
