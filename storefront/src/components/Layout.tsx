import { Link, Outlet } from "react-router-dom";
import { Header } from "./Header";
import { CartProvider } from "../lib/cart";
import { CartDrawer } from "./CartDrawer";

export function Layout() {
  return (
    <CartProvider>
      <div className="app">
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <Header />
        <main id="main" className="main">
          <Outlet />
        </main>
        <footer className="footer">
          <p>© {new Date().getFullYear()} Fashion Discovery</p>
          <p>
            <Link to="/request-a-product" data-testid="footer-request-product">
              Request a product
            </Link>
          </p>
        </footer>
        <CartDrawer />
      </div>
    </CartProvider>
  );
}
