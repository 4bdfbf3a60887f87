// Help subjects as the client sees them: each labelled in the client's
// language (X-App-Lang), from the labels identity stores per language.
import type { Lang } from './lang.js';

export interface LabelledSubject {
  key: string;
  /** Language code to label, as the dataset has them. */
  labels: Record<string, string>;
}

/** The label in `lang`, else in English, else the key itself (a subject the dataset labels in no language). */
export function helpSubjectLabel(subject: LabelledSubject, lang: Lang): string {
  return subject.labels[lang] ?? subject.labels.en ?? subject.key;
}

/** `GET /api/v2/help`: subject key to label, in the order identity offers them. */
export function helpSubjectsToWire(subjects: readonly LabelledSubject[], lang: Lang): Record<string, string> {
  return Object.fromEntries(subjects.map((subject) => [subject.key, helpSubjectLabel(subject, lang)]));
}
