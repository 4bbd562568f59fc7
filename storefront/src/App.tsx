import { Suspense, type ComponentType } from "react";
import { Outlet, Route, Routes } from "react-router-dom";
import { Layout } from "./components/Layout";
import { GenderProvider } from "./lib/gender";
import { lazyComponent } from "./lib/lazy-component";
const Home = page(() => import("./pages/Home"), "Home");
const Stores = page(() => import("./pages/Stores"), "Stores");
const Login = page(() => import("./pages/Login"), "Login");
const NotFound = page(() => import("./pages/NotFound"), "NotFound");
const ProductPage = page(() => import("./pages/ProductPage"), "ProductPage");
const StorePage = page(() => import("./pages/StorePage"), "StorePage");
const PhotoSearch = page(() => import("./pages/PhotoSearch"), "PhotoSearch");
const Saved = page(() => import("./pages/Saved"), "Saved");
const Following = page(() => import("./pages/Following"), "Following");
const MyCollections = page(() => import("./pages/MyCollections"), "MyCollections");
const MyCollection = page(() => import("./pages/MyCollection"), "MyCollection");
const Account = page(() => import("./pages/Account"), "Account");
const ReviewByToken = page(() => import("./pages/ReviewByToken"), "ReviewByToken");
const ReviewableOrders = page(() => import("./pages/ReviewableOrders"), "ReviewableOrders");
const Orders = page(() => import("./pages/Orders"), "Orders");
const OrderDetail = page(() => import("./pages/OrderDetail"), "OrderDetail");
const Returns = page(() => import("./pages/Returns"), "Returns");
const Notifications = page(() => import("./pages/Notifications"), "Notifications");
const Assistant = page(() => import("./pages/Assistant"), "Assistant");
const Drops = page(() => import("./pages/Drops"), "Drops");
const Clones = page(() => import("./pages/Clones"), "Clones");
const MyTryOns = page(() => import("./pages/MyTryOns"), "MyTryOns");
const SavedTryOns = page(() => import("./pages/SavedTryOns"), "SavedTryOns");
const VerifyEmail = page(() => import("./pages/VerifyEmail"), "VerifyEmail");
const SignUp = page(() => import("./pages/SignUp"), "SignUp");
const ForgotPassword = page(() => import("./pages/ForgotPassword"), "ForgotPassword");
const ResetPassword = page(() => import("./pages/ResetPassword"), "ResetPassword");
const Checkout = page(() => import("./pages/Checkout"), "Checkout");
const Cart = page(() => import("./pages/Cart"), "Cart");
const RequestProduct = page(() => import("./pages/RequestProduct"), "RequestProduct");

/**
 * Each page is its own chunk, loaded when its route is first shown (the server preloads the chunk
 * of the page it answers: app/lib/storefront-html.server.ts), so a first visit downloads the shell
 * and one page, not the whole storefront.
 */
function page<M extends Record<K, ComponentType>, K extends keyof M & string>(load: () => Promise<M>, name: K) {
  return lazyComponent(async () => (await load())[name]);
}

/** While a page's chunk loads, the layout stays and the page's place is held. */
function PageOutlet() {
  return (
    <Suspense fallback={<div className="page-loading" aria-busy="true" />}>
      <Outlet />
    </Suspense>
  );
}

/**
 * Routes (SPEC §2): `/`, `/mens`, `/womens` home (feed, or search results with `?search=`);
 * `/stores` and its gendered forms; `/stores/<id>/<handle>`; `/products/<id>/<handle>`;
 * `/photo-search`; `/login`; `/verify-email` (the email verification link); 404.
 */
export function App() {
  return (
    <GenderProvider>
      <Routes>
        <Route element={<Layout />}>
          <Route element={<PageOutlet />}>
          <Route path="/" element={<Home />} />
          <Route path="/mens" element={<Home />} />
          <Route path="/womens" element={<Home />} />
          <Route path="/stores" element={<Stores />} />
          <Route path="/mens/stores" element={<Stores />} />
          <Route path="/womens/stores" element={<Stores />} />
          <Route path="/stores/:storeId/:handle?" element={<StorePage />} />
          <Route path="/products/:productId/:handle?" element={<ProductPage />} />
          <Route path="/photo-search" element={<PhotoSearch />} />
          <Route path="/login" element={<Login />} />
          <Route path="/register" element={<SignUp />} />
          <Route path="/forgot-password" element={<ForgotPassword />} />
          <Route path="/reset-password" element={<ResetPassword />} />
          <Route path="/saved" element={<Saved />} />
          <Route path="/following" element={<Following />} />
          <Route path="/my-collections" element={<MyCollections />} />
          <Route path="/my-collections/:collectionId" element={<MyCollection />} />
          <Route path="/account" element={<Account />} />
          <Route path="/review" element={<ReviewByToken />} />
          <Route path="/verify-email" element={<VerifyEmail />} />
          <Route path="/reviewable-orders" element={<ReviewableOrders />} />
          <Route path="/account/orders" element={<Orders />} />
          <Route path="/account/orders/:orderId" element={<OrderDetail />} />
          <Route path="/account/returns" element={<Returns />} />
          <Route path="/account/notifications" element={<Notifications />} />
          <Route path="/drops" element={<Drops />} />
          <Route path="/assistant" element={<Assistant />} />
          <Route path="/clones" element={<Clones />} />
          <Route path="/try-ons" element={<MyTryOns />} />
          <Route path="/saved-try-ons" element={<SavedTryOns />} />
          <Route path="/cart" element={<Cart />} />
          <Route path="/checkout" element={<Checkout />} />
          <Route path="/request-a-product" element={<RequestProduct />} />
          <Route path="*" element={<NotFound />} />
          </Route>
        </Route>
      </Routes>
    </GenderProvider>
  );
}
