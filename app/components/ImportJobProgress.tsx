/**
 * The progress of one Taobao import job: a live bar and the step while it is queued or running
 * (or waiting for a retry), a full bar when done, the failed step otherwise.
 */
import { BlockStack, ProgressBar, Text } from "@shopify/polaris";

export const IMPORT_STEP_LABEL: Record<string, string> = {
  fetch: "Fetching the item",
  map: "Mapping",
  images: "Processing images",
  translate: "Translating",
  create: "Creating the product",
  propose: "Proposing variant images",
};
const STEP_LABEL = IMPORT_STEP_LABEL;

export interface ImportJobProgressProps {
  job: { status: "queued" | "running" | "completed" | "failed"; progress: number; step: string | null; attempts: number; maxAttempts: number; error: string | null; retryAt: string | null };
}

export function ImportJobProgress({ job }: ImportJobProgressProps) {
  if (job.status === "queued" || job.status === "running") {
    const waiting = job.status === "queued" && job.error;
    return (
      <BlockStack gap="100">
        <div data-testid="import-progress">
          <ProgressBar progress={job.progress} size="small" tone="highlight" />
        </div>
        <Text as="span" variant="bodySm" tone="subdued">
          {waiting
            ? `Retrying (attempt ${job.attempts + 1} of ${job.maxAttempts})${job.retryAt ? ` at ${new Date(job.retryAt).toLocaleTimeString("en")}` : ""}`
            : job.status === "queued"
              ? "Queued…"
              : `${STEP_LABEL[job.step ?? ""] ?? "Working"}… ${job.progress}%`}
        </Text>
      </BlockStack>
    );
  }
  if (job.status === "completed") return <ProgressBar progress={100} size="small" tone="success" />;
  return (
    <Text as="span" variant="bodySm" tone="critical">
      Failed at {STEP_LABEL[job.step ?? ""]?.toLowerCase() ?? "an unknown step"}
    </Text>
  );
}

