/**
 * Work that follows product writes through the commerce port (vectors to re-index, images to
 * size): the port wrapped so that, after each listed write succeeds, `onWrite` gets the product
 * it concerned (createProduct: the id it answers; the others: their first argument, the product
 * id). A failed write calls nothing.
 */
import type { CommercePort } from "~/providers/commerce/port";

type ProductIdFirstWrite = Exclude<{ [K in keyof CommercePort]-?: NonNullable<CommercePort[K]> extends (productId: string, ...rest: never[]) => Promise<unknown> ? K : never }[keyof CommercePort], "createProduct">;

export function afterProductWrites(commerce: CommercePort, writes: readonly ProductIdFirstWrite[], onWrite: (productId: string) => Promise<void>): CommercePort {
  const wrapped: CommercePort = Object.create(commerce) as CommercePort;
  wrapped.createProduct = async (input) => {
    const snap = await commerce.createProduct(input);
    await onWrite(snap.id);
    return snap;
  };
  for (const name of writes) {
    const original = commerce[name] as (...args: unknown[]) => Promise<unknown>;
    (wrapped as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      const result = await original.apply(commerce, args);
      await onWrite(String(args[0]));
      return result;
    };
  }
  return wrapped;
}
