import { describe, expect, it } from 'vitest';
import type { TenantRecord } from '../domain/repositories.js';
import { toTenant } from './mappers.js';

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
  it('when every style is text, then they travel typed', () => {
    const styles = { 'font-family': 'Georgia', color: '#333333' };
    const { reader } = toTenant(tenant({ customStyles: styles }));
    expect(reader!.styles).toEqual({ values: styles });
  });

  it('when a style is not text, then none travel (a style is text)', () => {
    const { reader } = toTenant(tenant({ customStyles: { 'font-size': 16, color: '#333333' } }));
    expect(reader!.styles).toBeUndefined();
  });

  it('when the tenant has none, then none travel', () => {
    const { reader } = toTenant(tenant({ customStyles: null }));
    expect(reader!.styles).toBeUndefined();
  });
});
