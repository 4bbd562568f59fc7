import type { LinksFunction } from "@remix-run/node";
import { AppProvider, Banner, Page } from "@shopify/polaris";
import enTranslations from "@shopify/polaris/locales/en.json";
import polarisStyles from "@shopify/polaris/build/esm/styles.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: polarisStyles }];

export default function NoAccess() {
  return (
    <AppProvider i18n={enTranslations}>
      <Page narrowWidth title="No access yet">
        <Banner tone="warning">
          Your staff account is not linked to this app. Ask an admin to invite your email under Admin users, then accept the invitation with the link in
          the email: access starts once you accept it.
        </Banner>
      </Page>
    </AppProvider>
  );
}
