/**
 * The admin's problem pages, shown inside the admin frame (navigation kept): a page that does not
 * exist (404) and a page the signed-in staff member may not see (403, or another refusal with the
 * server's message). Each offers the way back to the caller's home page (the first navigation item:
 * the dashboard for admins, the vendor home for vendors).
 */
import { BlockStack, Box, Button, Card, InlineStack, Page, Text } from "@shopify/polaris";

/** The one body of both pages: what happened, what to do, and the way home. */
function ProblemPage({ title, testId, message, hint, homeUrl }: { title: string; testId: string; message: string; hint: string; homeUrl: string }) {
  return (
    <Page title={title} narrowWidth>
      <Card>
        <Box paddingBlock="400">
          <BlockStack gap="400" inlineAlign="start">
            <span data-testid={testId}>
              <Text as="p" variant="bodyLg">
                {message}
              </Text>
            </span>
            <Text as="p" tone="subdued">
              {hint}
            </Text>
            <InlineStack gap="200">
              <Button variant="primary" url={homeUrl}>
                Go to the home page
              </Button>
            </InlineStack>
          </BlockStack>
        </Box>
      </Card>
    </Page>
  );
}

export function NotFoundPage({ path, message, homeUrl = "/app" }: { path?: string; message?: string; homeUrl?: string }) {
  return (
    <ProblemPage
      title="Page not found"
      testId="admin-not-found"
      message={message ?? (path ? `There is no admin page at ${path}.` : "This page does not exist.")}
      hint="The link may be mistyped or out of date. Choose a page in the navigation, or go back to the home page."
      homeUrl={homeUrl}
    />
  );
}

/** A refusal (403: no permission; 400 and others: the server's message) as a page inside the frame. */
export function RefusalPage({ status, message, homeUrl = "/app" }: { status: number; message: string; homeUrl?: string }) {
  const noAccess = status === 403;
  return (
    <ProblemPage
      title={noAccess ? "No access" : "Something went wrong"}
      testId="admin-refusal"
      message={message}
      hint={
        noAccess
          ? "An admin who manages admin users can give you access. The pages you can open are in the navigation."
          : "Go back and try again, or choose a page in the navigation."
      }
      homeUrl={homeUrl}
    />
  );
}
