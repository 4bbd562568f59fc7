/**
 * The admin chrome. Inside Shopify the admin's own navigation is used (App Bridge NavMenu);
 * outside it (local mode) a Polaris Frame with a navigation and a top bar renders the same pages,
 * and nothing depends on the App Bridge script, which loads from Shopify's CDN.
 */
import { useState, type ReactNode } from "react";
import { Form, Link as RemixLink, useLocation } from "@remix-run/react";
import { AppProvider as PolarisAppProvider, Frame, Navigation, TopBar, Text, BlockStack, Button, Box } from "@shopify/polaris";
import type { LinkLikeComponentProps } from "@shopify/polaris/build/ts/src/utilities/link";
import enTranslations from "@shopify/polaris/locales/en.json";
import { AppProvider as ShopifyAppProvider } from "@shopify/shopify-app-remix/react";
import { NavMenu } from "@shopify/app-bridge-react";

export interface FrameUser {
  email: string | null;
  name: string;
  role: string;
}

function PolarisLink({ url, children, external, ...rest }: LinkLikeComponentProps) {
  if (external || /^https?:/.test(url)) {
    return (
      <a href={url} target="_blank" rel="noopener noreferrer" {...rest}>
        {children}
      </a>
    );
  }
  return (
    <RemixLink to={url} {...rest}>
      {children}
    </RemixLink>
  );
}

export function AdminFrame(props: { embedded: boolean; apiKey: string; nav: { label: string; url: string }[]; user: FrameUser; children: ReactNode }) {
  if (props.embedded) {
    return (
      <ShopifyAppProvider isEmbeddedApp apiKey={props.apiKey}>
        <NavMenu>
          {props.nav.map((n, i) => (
            <RemixLink key={n.url} to={n.url} rel={i === 0 ? "home" : undefined}>
              {n.label}
            </RemixLink>
          ))}
        </NavMenu>
        {props.children}
      </ShopifyAppProvider>
    );
  }
  return (
    <PolarisAppProvider i18n={enTranslations} linkComponent={PolarisLink}>
      <LocalFrame {...props} />
    </PolarisAppProvider>
  );
}

function LocalFrame({ nav, user, children }: { nav: { label: string; url: string }[]; user: FrameUser; children: ReactNode }) {
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [mobileNav, setMobileNav] = useState(false);
  const userMenu = (
    <TopBar.UserMenu
      name={user.name}
      detail={user.role === "ADMIN" ? "Admin" : "Vendor"}
      initials={(user.name[0] ?? "?").toUpperCase()}
      open={menuOpen}
      onToggle={() => setMenuOpen((o) => !o)}
      actions={[]}
      customActivator={undefined}
    />
  );
  const navigation = (
    <Navigation location={location.pathname}>
      <Navigation.Section
        items={nav.map((n) => ({ label: n.label, url: n.url, selected: n.url === "/app" ? location.pathname === "/app" : location.pathname.startsWith(n.url) }))}
      />
      <Box padding="400">
        <BlockStack gap="200">
          <Text as="p" variant="bodySm" tone="subdued">
            Signed in as {user.email}
          </Text>
          <Form method="post" action="/app/logout">
            <Button submit variant="plain">
              Sign out
            </Button>
          </Form>
        </BlockStack>
      </Box>
    </Navigation>
  );
  return (
    <Frame
      topBar={<TopBar showNavigationToggle userMenu={userMenu} onNavigationToggle={() => setMobileNav((o) => !o)} />}
      navigation={navigation}
      showMobileNavigation={mobileNav}
      onNavigationDismiss={() => setMobileNav(false)}
      logo={{ width: 140, topBarSource: "data:image/svg+xml;utf8," + encodeURIComponent(LOGO_SVG), accessibilityLabel: "Fashion Discovery admin", url: "/app" }}
    >
      {children}
    </Frame>
  );
}

const LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="280" height="56" viewBox="0 0 280 56"><text x="0" y="38" font-family="Helvetica,Arial,sans-serif" font-size="28" font-weight="700" fill="#f1f1f1">Fashion Discovery</text></svg>`;
