import type { Server } from 'node:http';

/** How much longer than an idle keep-alive connection may live a request's headers may take to arrive. */
export const HEADERS_MARGIN_MS = 5_000;

/**
 * Timeouts for a server behind a load balancer that pools its connections (AWS ALB and nginx keep idle ones 60 s
 * by default): an idle connection is closed only after `keepAliveSeconds`, set above the balancer's timeout, so
 * that the balancer never sends a request onto a connection this side is closing, which it answers 502. The
 * headers timeout stays above the keep-alive one, so that the headers of a request on a reused connection are
 * never judged late by a timer that started before it; the whole-request timeout stays at least as long (Node
 * swaps the two otherwise).
 */
export function applyKeepAlive(
  server: Pick<Server, 'keepAliveTimeout' | 'headersTimeout' | 'requestTimeout'>,
  keepAliveSeconds: number,
): void {
  server.keepAliveTimeout = keepAliveSeconds * 1000;
  server.headersTimeout = server.keepAliveTimeout + HEADERS_MARGIN_MS;
  if (server.requestTimeout > 0 && server.requestTimeout < server.headersTimeout) server.requestTimeout = server.headersTimeout;
}
