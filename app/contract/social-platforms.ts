/**
 * The social platforms product posts are written for and the hashtag rule (issue 19 "Product
 * socials content"): shared by the contract and the language-model port, which imports it.
 */
import { z } from "zod";

export const SOCIAL_PLATFORMS = ["instagram", "tiktok", "pinterest", "facebook"] as const;
export const SocialPlatform = z.enum(SOCIAL_PLATFORMS);
export type SocialPlatform = z.infer<typeof SocialPlatform>;

/** A hashtag without its '#': letters, digits (any script) and '_', at most 100 characters. */
export const Hashtag = z
  .string()
  .trim()
  .regex(/^[\p{L}\p{N}_]{1,100}$/u, "a hashtag is letters, digits and '_' (without '#')");
