// The fields of an issue summary as the gateway sends them, in order, and the
// commerce fields a single-store listing adds after them (scope=all): what the
// library, search and my-content tests assert every item's keys against.
export const ISSUE_SUMMARY_KEYS = [
  'id',
  'tenant_id',
  'name',
  'slug',
  'cover_url',
  'published_at',
  'type',
  'description',
  'external_id',
  'number_of_pages',
  'lang',
  'author',
  'publisher',
  'bisac',
];

export const COMMERCE_KEYS = ['can_be_read', 'can_be_bought', 'access_reason', 'free', 'prices', 'purchase_link', 'status'];
