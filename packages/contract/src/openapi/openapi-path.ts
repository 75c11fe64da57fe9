/** `/v1/pets/:petId` → `/v1/pets/{petId}`. */
export function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}
