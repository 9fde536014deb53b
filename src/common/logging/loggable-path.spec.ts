import { loggablePath } from './loggable-path';

describe('loggablePath', () => {
  const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJyZXNvdXJjZSI6eyJxdWVzdGlvbiI6MX0sInBhcmFtcyI6e319.c2lnbmF0dXJlX2hlcmU';

  it('hides an embed token wherever it sits in the path', () => {
    expect(loggablePath(`/api/embed/card/${jwt}/query`)).toBe('/api/embed/card/<token>/query');
    expect(loggablePath(`/api/preview-embed/dashboard/${jwt}/dashcard/3/card/4`)).toBe(
      '/api/preview-embed/dashboard/<token>/dashcard/3/card/4',
    );
    expect(loggablePath(`/embed/question/${jwt}`)).toBe('/embed/question/<token>');
  });

  it('hides a segment that holds a token with a suffix or other text around it', () => {
    for (const suffix of ['.csv', '.xlsx', '.json', '.csv.gz', '#x']) {
      expect(loggablePath(`/embed/question/${jwt}${suffix}`)).toBe('/embed/question/<token>');
    }
    expect(loggablePath(`/embed/question/prefix-${jwt}`)).toBe('/embed/question/<token>');
    expect(loggablePath(`/api/embed/card/${jwt}/query/csv`)).toBe('/api/embed/card/<token>/query/csv');
    const unsigned = jwt.slice(0, jwt.lastIndexOf('.') + 1); // alg none: an empty signature
    expect(loggablePath(`/api/embed/card/${unsigned}`)).toBe('/api/embed/card/<token>');
  });

  it('hides a token whose dots are percent-encoded, as the router decodes them', () => {
    expect(loggablePath(`/api/embed/card/${jwt.replace(/\./g, '%2E')}/query`)).toBe('/api/embed/card/<token>/query');
    expect(loggablePath(`/embed/question/${jwt.replace(/\./g, '%2e')}%ZZ.csv`)).toBe('/embed/question/<token>');
  });

  it('leaves other paths as they are, dotted file names included', () => {
    expect(loggablePath('/api/card/12/query/csv')).toBe('/api/card/12/query/csv');
    expect(loggablePath('/app/main.3f2a1b.js')).toBe('/app/main.3f2a1b.js');
    expect(loggablePath('/app/assets/index-B8fJk2.css')).toBe('/app/assets/index-B8fJk2.css');
    expect(loggablePath('/api/public/card/8c1b4f0e-4b9e-4c57-9a41-1f3c0f0b2f6a/query/json')).toBe(
      '/api/public/card/8c1b4f0e-4b9e-4c57-9a41-1f3c0f0b2f6a/query/json',
    );
    expect(loggablePath('/api/search?q=a%20b')).toBe('/api/search?q=a%20b');
  });
});
