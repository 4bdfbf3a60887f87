// Headless Debian Chromium driven by Playwright, launched as the machine
// documentation prescribes (no sandbox as root, no background networking on a
// closed network; Playwright gives each launch a new empty profile). `*.localhost` resolves to the loopback inside Chromium, so
// store hosts like northwind.localhost:8080 reach the local gateway.
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
