import * as http from 'node:http';
import { applyKeepAlive, HEADERS_MARGIN_MS } from './keep-alive';

describe('applyKeepAlive', () => {
  it('keeps idle connections the given time, with the headers timeout above it and the request timeout not below that', () => {
    const server = http.createServer();
    applyKeepAlive(server, 65);
    expect(server.keepAliveTimeout).toBe(65_000);
    expect(server.headersTimeout).toBe(65_000 + HEADERS_MARGIN_MS);
    // Node's default (300 s) is already longer.
    expect(server.requestTimeout).toBe(300_000);
  });

  it('raises the request timeout when the keep-alive one outlasts it (a 600 s balancer)', () => {
    const server = http.createServer();
    applyKeepAlive(server, 620);
    expect(server.headersTimeout).toBe(620_000 + HEADERS_MARGIN_MS);
    expect(server.requestTimeout).toBe(server.headersTimeout);
  });

  it('leaves a disabled request timeout disabled', () => {
    const server = http.createServer({ requestTimeout: 0 });
    applyKeepAlive(server, 620);
    expect(server.requestTimeout).toBe(0);
  });
});
