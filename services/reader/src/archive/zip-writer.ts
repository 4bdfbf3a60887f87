// Writes a zip archive in memory: entries stored, deflated, or copied from
// another archive as they are stored there (still compressed, with their CRC
// and sizes), which is how the preview builder keeps the files it does not
// change without inflating them. No ZIP64: the archive limits keep an archive
// far below its 4 GB and 65,535 entries.
import { deflateRawSync } from 'node:zlib';
import type { ArchiveEntry } from './zip-reader.js';

const STORE = 0;
const DEFLATE = 8;
/** General purpose flag bit 11: the name is UTF-8. */
const UTF8_NAME = 0x0800;
const VERSION = 20;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

interface Written {
  name: Buffer;
  method: number;
  time: number;
  date: number;
  crc: number;
  compressedSize: number;
  size: number;
  offset: number;
}

/** DOS time and date of now (what zip tools write for a new entry). */
function dosNow(): { time: number; date: number } {
  const now = new Date();
  return {
    time: (now.getHours() << 11) | (now.getMinutes() << 5) | Math.floor(now.getSeconds() / 2),
    date: ((now.getFullYear() - 1980) << 9) | ((now.getMonth() + 1) << 5) | now.getDate(),
  };
}

export class ZipWriter {
  private readonly parts: Buffer[] = [];
  private readonly written: Written[] = [];
  private offset = 0;

  /** An entry kept as is (the EPUB's mimetype must be first and stored). */
  addStored(name: string, data: Buffer): void {
    const { time, date } = dosNow();
    this.add(name, STORE, time, date, crc32(data), data.length, data);
  }

  addDeflated(name: string, data: Buffer): void {
    const { time, date } = dosNow();
    this.add(name, DEFLATE, time, date, crc32(data), data.length, deflateRawSync(data));
  }

  /** An entry of another archive, its stored bytes (`raw`) copied unchanged. */
  addRaw(entry: ArchiveEntry, raw: Buffer): void {
    this.add(entry.name, entry.compressionMethod, entry.lastModFileTime, entry.lastModFileDate, entry.crc32, entry.size, raw);
  }

  /** The whole archive: the entries, their central directory and its end record. */
  finish(): Buffer {
    const directoryOffset = this.offset;
    const directory = this.written.map((entry) => {
      const header = Buffer.alloc(46);
      header.writeUInt32LE(0x02014b50, 0);
      header.writeUInt16LE(VERSION, 4); // made by: MS-DOS, so no Unix mode bits are claimed
      header.writeUInt16LE(VERSION, 6);
      header.writeUInt16LE(UTF8_NAME, 8);
      header.writeUInt16LE(entry.method, 10);
      header.writeUInt16LE(entry.time, 12);
      header.writeUInt16LE(entry.date, 14);
      header.writeUInt32LE(entry.crc, 16);
      header.writeUInt32LE(entry.compressedSize, 20);
      header.writeUInt32LE(entry.size, 24);
      header.writeUInt16LE(entry.name.length, 28);
      // extra field, comment, disk number, internal and external attributes: all 0
      header.writeUInt32LE(entry.offset, 42);
      return Buffer.concat([header, entry.name]);
    });
    const directorySize = directory.reduce((sum, part) => sum + part.length, 0);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.written.length, 8);
    end.writeUInt16LE(this.written.length, 10);
    end.writeUInt32LE(directorySize, 12);
    end.writeUInt32LE(directoryOffset, 16);
    return Buffer.concat([...this.parts, ...directory, end]);
  }

  private add(name: string, method: number, time: number, date: number, crc: number, size: number, data: Buffer): void {
    const nameBytes = Buffer.from(name, 'utf8');
    if (this.written.length >= 0xffff || this.offset + data.length + 30 + nameBytes.length > 0xffffffff) {
      throw new RangeError('the archive is too big to write without ZIP64');
    }
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(VERSION, 4);
    header.writeUInt16LE(UTF8_NAME, 6);
    header.writeUInt16LE(method, 8);
    header.writeUInt16LE(time, 10);
    header.writeUInt16LE(date, 12);
    header.writeUInt32LE(crc, 14);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(size, 22);
    header.writeUInt16LE(nameBytes.length, 26);
    this.written.push({ name: nameBytes, method, time, date, crc, compressedSize: data.length, size, offset: this.offset });
    this.parts.push(header, nameBytes, data);
    this.offset += header.length + nameBytes.length + data.length;
  }
}
