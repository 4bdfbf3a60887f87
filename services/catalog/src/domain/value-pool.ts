// One copy of each repeated value the in-memory view keeps per issue: the
// shelf list and the type (the rest of an issue is in its details store,
// issue-details.ts). At 100,000 issues one fresh array per issue for its
// shelves (an array that grew by push keeps room for 17 entries) and a type
// string read from MongoDB per document add up. Records built through this
// pool share each distinct list (frozen, so that no holder can change it
// under the others) and each distinct short string.
//
// The pool only ever saves memory: it forgets everything when it grows past
// its bound (a catalog whose lists are all different gains nothing from it),
// and a record holding a list the pool forgot is still correct.
const MAX_ENTRIES = 200_000;

const EMPTY: readonly string[] = Object.freeze([]);

export class ValuePool {
  private readonly lists = new Map<string, readonly string[]>();
  private readonly strings = new Map<string, string>();

  /** The pool's frozen copy of a list of strings. */
  list(values: readonly string[] | null | undefined): readonly string[] {
    if (!values || values.length === 0) return EMPTY;
    // JSON keeps every list apart, whatever characters its values hold.
    const key = JSON.stringify(values);
    let shared = this.lists.get(key);
    if (!shared) {
      shared = Object.freeze(Array.from(values, (value) => this.string(value)));
      this.remember(this.lists, key, shared);
    }
    return shared;
  }

  /** The pool's copy of a string: one instance per distinct value. */
  string(value: string): string {
    const shared = this.strings.get(value);
    if (shared !== undefined) return shared;
    this.remember(this.strings, value, value);
    return value;
  }

  private remember<V>(map: Map<string, V>, key: string, value: V): void {
    if (map.size >= MAX_ENTRIES) map.clear();
    map.set(key, value);
  }
}
