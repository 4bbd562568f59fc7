/** A try-on's picture, or the placeholder when it has none (SPEC §9) or the image fails to load. */
import { useState } from "react";
import { TRYON_PLACEHOLDER_IMAGE } from "../../lib/ai-constants";

export function TryOnImage({ url, alt, className, testId }: { url: string | null | undefined; alt: string; className?: string; testId?: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  const usable = url && failed !== url ? url : null;
  return (
    <img
      className={className}
      src={usable ?? TRYON_PLACEHOLDER_IMAGE}
      alt={usable ? alt : `${alt} (no image yet)`}
      width={300}
      height={400}
      loading="lazy"
      decoding="async"
      data-testid={testId}
      data-placeholder={usable ? undefined : "true"}
      onError={() => url && setFailed(url)}
    />
  );
}
