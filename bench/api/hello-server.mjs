// The reference point of the API benchmark: a bare express 5 route, run in its
// own process beside the stack, so each endpoint's req/s can be read as a
// fraction of what express itself does on this machine in the same run.
// Prints `listening <port>` once it accepts connections.
import express from 'express';

const app = express();
app.get('/hello', (_req, res) => {
  res.json({ hello: 'world' });
});
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`listening ${server.address().port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
