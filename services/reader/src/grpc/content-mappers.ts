// Publishing's domain records <-> reader's proto messages (UploadContent,
// GetContentStatus). An unset optional is "null"; the gateway renders the wire.
import { reader } from '@folio/proto';
import type { ContentMetadataRecord, ContentStatusView, FindingRecord, JobState, UploadHeader } from '../domain/uploads.js';
import { accessibilityToProto } from './mappers.js';

const STATES: Record<JobState, reader.ContentState> = {
  queued: reader.ContentState.CONTENT_STATE_QUEUED,
  processing: reader.ContentState.CONTENT_STATE_PROCESSING,
  ready: reader.ContentState.CONTENT_STATE_READY,
  failed: reader.ContentState.CONTENT_STATE_FAILED,
};

const orUndefined = <T>(value: T | null | undefined): T | undefined => (value === null ? undefined : value);

export function uploadHeaderFromProto(header: reader.UploadContentHeader): UploadHeader {
  return {
    tenantId: header.tenantId,
    issueId: header.issueId,
    issueType: header.issueType,
    mediaType: header.mediaType.split(';')[0]!.trim().toLowerCase(),
    declaredBytes: header.declaredBytes,
    title: header.title,
    authors: header.authors,
    uploadedBy: header.uploadedBy,
  };
}

function findingToProto(finding: FindingRecord): reader.ValidationFinding {
  return { severity: finding.severity, code: finding.code, message: finding.message, location: orUndefined(finding.location) };
}

function metadataToProto(metadata: ContentMetadataRecord): reader.ContentMetadata {
  return {
    title: metadata.title ?? '',
    authors: metadata.authors ?? [],
    publisher: metadata.publisher ?? '',
    lang: metadata.lang ?? '',
    description: metadata.description ?? '',
    identifiers: metadata.identifiers ?? [],
    numberOfPages: orUndefined(metadata.number_of_pages),
    durationSeconds: orUndefined(metadata.duration_seconds),
    chapters: metadata.chapters ?? 0,
    layout: orUndefined(metadata.layout),
    readingProgression: metadata.reading_progression ?? 'auto',
    hasCover: metadata.has_cover ?? false,
    accessibility: metadata.accessibility ? accessibilityToProto(metadata.accessibility) : undefined,
  };
}

export function contentStatusToProto({ job, liveContentHash }: ContentStatusView): reader.ContentStatus {
  return {
    state: STATES[job.state],
    contentHash: job.content_hash,
    bytes: job.bytes,
    mediaType: job.media_type,
    uploadedAt: job.uploaded_at.toISOString(),
    progress: job.progress,
    step: orUndefined(job.step),
    findings: (job.findings ?? []).map(findingToProto),
    metadata: job.metadata ? metadataToProto(job.metadata) : undefined,
    error: orUndefined(job.error),
    readyAt: job.ready_at ? job.ready_at.toISOString() : undefined,
    liveContentHash: orUndefined(liveContentHash),
  };
}
