import type { Db } from 'mongodb';
import { caseFold } from 'unicode-case-folding';
import { isDuplicateKeyError } from './duplicate-key.js';
import { categoriesCollection } from './storage.js';

/**
 * What makes two category names the same: surrounding spaces, Unicode composition and case do not
 * count. Full Unicode case folding (CaseFolding.txt, C + F), not `toLowerCase`: `straße` and
 * `STRASSE` fold alike, as do `ﬁsh` and `FISH`. Normalised again after folding, which can
 * decompose (`İ` folds to `i` + a combining dot).
 */
export function nameKeyOf(name: string): string {
  return caseFold(name.trim().normalize('NFC')).normalize('NFC');
}

/**
 * Brings every stored `nameKey` to what `nameKeyOf` makes of its name today, so that names kept
 * under an older rule (lower-casing) are compared under the current one. Two names that were
 * distinct before and are the same now cannot both have the new key: the later one keeps its old
 * key, and both stay as they are.
 */
export async function refreshNameKeys(db: Db): Promise<void> {
  const categories = categoriesCollection(db);
  const stored = await categories
    .find({}, { projection: { name: 1, nameKey: 1 } })
    .sort({ _id: 1 })
    .toArray();
  for (const { _id, name, nameKey } of stored) {
    const current = nameKeyOf(name);
    if (current === nameKey) continue;
    try {
      await categories.updateOne({ _id, name }, { $set: { nameKey: current } });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }
}
