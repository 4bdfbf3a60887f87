// The content storage the configuration names: every process of reader (the
// service, the ingest child, the seed and the ingest CLI) opens it here, so
// they all read and write the same place.
import type { ReaderConfig } from '../config.js';
import { LocalDiskStorage } from './local-disk.js';
import { S3Storage } from './s3.js';
import type { ContentStorage } from './storage.js';

export type StorageConfig = Pick<
  ReaderConfig,
  | 'READER_STORAGE'
  | 'READER_STORAGE_DIR'
  | 'S3_ENDPOINT'
  | 'S3_REGION'
  | 'S3_BUCKET'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'S3_FORCE_PATH_STYLE'
  | 'S3_PREFIX'
>;

export function contentStorageOf(config: StorageConfig): ContentStorage & { close?: () => void } {
  if (config.READER_STORAGE === 'local') return new LocalDiskStorage(config.READER_STORAGE_DIR);
  return new S3Storage({
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    bucket: config.S3_BUCKET,
    accessKeyId: config.S3_ACCESS_KEY_ID!,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
    prefix: config.S3_PREFIX,
  });
}

/** Where the content goes, for log lines: the directory or the bucket. */
export function describeStorage(config: StorageConfig): string {
  return config.READER_STORAGE === 'local' ? config.READER_STORAGE_DIR : `s3://${config.S3_BUCKET}/${config.S3_PREFIX ?? ''}`;
}
