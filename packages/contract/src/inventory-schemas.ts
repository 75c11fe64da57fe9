import { IdSchema } from './ids.js';
import { PageQuerySchema } from './pagination.js';
import { PetStatusSchema } from './pet-schemas.js';
import { QuantitySchema } from './quantity.js';
import { z } from './zod.js';

export const InventoryItemSchema = z
  .object({
    petId: IdSchema.openapi({ example: 1 }),
    quantity: QuantitySchema.openapi({ description: 'How many are in stock.', example: 12 }),
    status: PetStatusSchema,
  })
  .openapi('InventoryItem', { description: 'The stock of a pet and the status it gives the pet.' });
export type InventoryItem = z.infer<typeof InventoryItemSchema>;

export const InventoryUpdateSchema = z
  .object({
    quantity: QuantitySchema.openapi({ description: 'The new stock count.', example: 12 }),
  })
  .openapi('InventoryUpdate');
export type InventoryUpdate = z.infer<typeof InventoryUpdateSchema>;

export const ListInventoryQuerySchema = PageQuerySchema.extend({
  status: z
    .array(PetStatusSchema)
    .min(1)
    .optional()
    .openapi({ description: 'Only items in one of these statuses.', example: ['available'] }),
});
export type ListInventoryQuery = z.infer<typeof ListInventoryQuerySchema>;
