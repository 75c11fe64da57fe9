/** `path` with each `:param` replaced by its value. */
export function fillPath(
  path: string,
  params: Record<string, string | number> = {},
): string {
  return path.replace(/:(\w+)/g, (_placeholder, name: string) => {
    const value = params[name];
    if (value === undefined)
      throw new Error(`no value for :${name} in ${path}`);
    return encodeURIComponent(String(value));
  });
}
