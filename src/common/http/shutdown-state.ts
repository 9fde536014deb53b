/**
 * Whether this process is shutting down. Set by main.ts on SIGTERM, before it stops accepting connections, so
 * that GET /api/health answers 503 and load balancers stop sending new requests here first: closing the listener
 * at once would reset connections a busy instance had not accepted yet, which a balancer cannot safely retry
 * for a POST.
 */
export const shutdownState = { draining: false };
