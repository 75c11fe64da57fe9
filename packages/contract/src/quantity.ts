import { z } from './zod.js';

/** A number of pets in stock or in an order: a whole number up to a million. */
export const QuantitySchema = z.number().int().min(0).max(1_000_000);
