// What the web reader page (page.ts, in the browser) and its test
// (test/web-reader.test.ts, in node) pass each other through page.evaluate.

export interface OpenOptions {
  /** The gateway's origin, e.g. http://127.0.0.1:8080. */
  gateway: string;
  token: string;
  tenantId: number;
  issueId: number;
}

export interface Opened {
  layout: string;
  /** The reading-order index of the resource shown first. */
  readingOrderIndex: number;
  positions: number;
  /** The text of the shown document (an EPUB chapter; empty for a page image). */
  text: string;
  /** The shown page image's natural size (PDF), else null. */
  image: { width: number; height: number } | null;
}

export interface Saved {
  status: number;
  body: unknown;
}

export interface FolioReader {
  open(options: OpenOptions): Promise<Opened>;
  savePosition(): Promise<Saved>;
}
