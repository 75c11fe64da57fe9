import type { Db } from 'mongodb';
import { caseFold } from 'unicode-case-folding';
import { categoriesCollection, isDuplicateKeyError } from './storage.js';

/**
 * What makes two category names the same: surrounding spaces, Unicode composition and case do not
 * count. Full case folding, not `toLowerCase`: `straße` and `STRASSE` fold alike. Normalised again
 * after folding, which can decompose (`İ` folds to `i` + a combining dot).
 */
export function nameKeyOf(name: string): string {
  return caseFold(name.trim().normalize('NFC')).normalize('NFC');
}

/**
 * Brings every stored `nameKey` to what `nameKeyOf` makes of its name today. Of two names that
 * were distinct under the older rule and are the same now, the later one keeps its old key.
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
