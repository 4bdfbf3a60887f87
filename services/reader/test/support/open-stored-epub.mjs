// A child process for test/hostile-files.test.ts: opens a stored EPUB the way
// the running service does (the package path's PackageFiles, the preview
// builder) from the built code, and prints what happened as one JSON line, so
// that the test can bound the peak memory of the attempt (report-peak-rss.mjs).
//   node --import ./report-peak-rss.mjs open-stored-epub.mjs <storage dir> <key> package <path>
//   node --import ./report-peak-rss.mjs open-stored-epub.mjs <storage dir> <key> preview <chapters>
const [root, key, mode, argument] = process.argv.slice(2);
const dist = new URL('../../dist/', import.meta.url);
const { LocalDiskStorage } = await import(new URL('storage/local-disk.js', dist).href);
const storage = new LocalDiskStorage(root);
try {
  let bytes;
  if (mode === 'package') {
    const { PackageFiles } = await import(new URL('media/package-files.js', dist).href);
    bytes = (await new PackageFiles(storage).read(key, argument))?.length ?? null;
  } else {
    const { buildPreviewEpub } = await import(new URL('ingest/epub-preview.js', dist).href);
    const info = await storage.stat(key);
    const source = { size: info.size, stream: (start, end) => storage.stream(key, { start, end }) };
    bytes = (await buildPreviewEpub(source, Number(argument))).length;
  }
  console.log(JSON.stringify({ ok: true, bytes }));
} catch (error) {
  console.log(JSON.stringify({ ok: false, name: error.name, message: error.message }));
}
