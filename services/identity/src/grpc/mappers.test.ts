import { describe, expect, it } from 'vitest';
import type { TenantRecord } from '../domain/repositories.js';
import { toHelpSubject, toTenant } from './mappers.js';

const tenant = (reader: unknown): TenantRecord => ({
  _id: 7,
  name: 'Styled',
  domain: 'styled.localhost',
  logo: '',
  country_code: null,
  country_name: null,
  colors: { primary: '#000000', secondary: '#ffffff' },
  plan_active: true,
  aggregator_id: null,
  currency: 'USD',
  lang: 'en',
  preview_percentage: 10,
  free_access: false,
  features: { storefront_search: false, tts: false, search: false, concurrency_limit: false, chinese_voice: false },
  mobile_app_scheme: null,
  help_subjects_hidden: [],
  reader,
  exit_url: '',
  twitter_user: '',
  web_origins: [],
  opds_public_catalog: false,
});

describe('the tenant reader styles', () => {
  it('when every style is text, then they travel typed and in the deprecated Struct alike', () => {
    const styles = { 'font-family': 'Georgia', color: '#333333' };
    const { reader } = toTenant(tenant({ customStyles: styles }));
    expect(reader!.styles).toEqual({ values: styles });
    expect(reader!.customStyles).toEqual(styles);
  });

  it('when a style is not text, then only the deprecated Struct carries them', () => {
    const styles = { 'font-size': 16, color: '#333333' };
    const { reader } = toTenant(tenant({ customStyles: styles }));
    expect(reader!.styles).toBeUndefined();
    expect(reader!.customStyles).toEqual(styles);
  });

  it('when the tenant has none, then neither is set', () => {
    const { reader } = toTenant(tenant({ customStyles: null }));
    expect(reader!.styles).toBeUndefined();
    expect(reader!.customStyles).toBeUndefined();
  });
});

describe('the deprecated help subject label', () => {
  const subject = { key: 'other', labels: { en: 'Other', pt: 'Outro' } };

  it('when the language has a label, then it is that one, else English, else the key', () => {
    expect(toHelpSubject(subject, 'pt-BR')).toEqual({ key: 'other', label: 'Outro', labels: subject.labels });
    expect(toHelpSubject(subject, 'it').label).toBe('Other');
    expect(toHelpSubject({ key: 'other', labels: {} }, '').label).toBe('other');
  });
});
