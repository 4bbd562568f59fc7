/** Store addresses: `/stores/<id>/<handle>` (the API reads stores by id; the handle is for people). */
export function storePath(store: { id: string; handle?: string | null }): string {
  const handle = (store.handle ?? "").trim();
  return `/stores/${encodeURIComponent(store.id)}${handle ? `/${encodeURIComponent(handle)}` : ""}`;
}
