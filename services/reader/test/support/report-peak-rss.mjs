// Preloaded (node --import) into a child process whose memory a test bounds:
// prints the process's peak resident set size when it exits, however it exits.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  writeSync(2, `\npeak-rss-kb=${process.resourceUsage().maxRSS}\n`);
});
