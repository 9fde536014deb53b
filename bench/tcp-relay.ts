/**
 * A process that only relays bytes between its clients and one TCP server: the cheapest hop a request can take
 * through another process. The query suite runs Postgres queries through it beside the direct runs, so that what
 * any process in the middle costs (waking it, two more socket copies) can be told apart from the server's work.
 */
import { PortProcess, startPortProcess } from './port-process';

// No Nagle on either side, as pg sets on its own socket: a relay that held small writes back would be slower than need be.
const RELAY = `
const net = require('node:net');
const [host, port] = [process.argv[1], Number(process.argv[2])];
const s = net.createServer((client) => {
  const server = net.connect(port, host);
  client.setNoDelay(true);
  server.setNoDelay(true);
  client.pipe(server);
  server.pipe(client);
  client.on('error', () => server.destroy());
  server.on('error', () => client.destroy());
  client.on('close', () => server.destroy());
  server.on('close', () => client.destroy());
});
s.listen(0, '127.0.0.1', () => console.log('PORT ' + s.address().port));
process.on('SIGTERM', () => process.exit(0));`;

export type Relay = PortProcess;

export function startRelay(host: string, port: number): Promise<Relay> {
  return startPortProcess('the relay', RELAY, [host, String(port)]);
}
