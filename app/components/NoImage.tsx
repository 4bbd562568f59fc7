/** Thumbnail stand-in for a product without an image. */
export const NoImage = (props: React.SVGProps<SVGSVGElement>) => (
  <svg viewBox="0 0 20 20" {...props}>
    <rect width="20" height="20" rx="3" fill="#e3e3e3" />
  </svg>
);
