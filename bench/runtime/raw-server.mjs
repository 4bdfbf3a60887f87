// node:http alone, answering what bench/api/hello-server.mjs answers: the floor
// under express, to tell the runtime's HTTP stack from express on it.
// Prints `listening <port>` once it accepts connections.
import http from 'node:http';

const body = JSON.stringify({ hello: 'world' });
const server = http.createServer((_req, res) => {
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(body);
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`listening ${server.address().port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
