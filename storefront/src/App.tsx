import { Route, Routes } from "react-router-dom";
import { Layout } from "./components/Layout";
import { Home } from "./pages/Home";
import { Stores } from "./pages/Stores";
import { Login } from "./pages/Login";
import { NotFound } from "./pages/NotFound";
import { ProductPage } from "./pages/ProductPage";
import { StorePage } from "./pages/StorePage";
import { PhotoSearch } from "./pages/PhotoSearch";
import { GenderProvider } from "./lib/gender";
import { Saved } from "./pages/Saved";
import { Following } from "./pages/Following";
import { MyCollections } from "./pages/MyCollections";
import { MyCollection } from "./pages/MyCollection";
import { Account } from "./pages/Account";
import { ReviewByToken } from "./pages/ReviewByToken";
import { ReviewableOrders } from "./pages/ReviewableOrders";
import { Orders } from "./pages/Orders";
import { OrderDetail } from "./pages/OrderDetail";
import { Returns } from "./pages/Returns";
import { Notifications } from "./pages/Notifications";
import { Assistant } from "./pages/Assistant";
import { Drops } from "./pages/Drops";
import { Clones } from "./pages/Clones";
import { MyTryOns } from "./pages/MyTryOns";
import { SavedTryOns } from "./pages/SavedTryOns";
import { VerifyEmail } from "./pages/VerifyEmail";
import { SignUp } from "./pages/SignUp";
import { ForgotPassword } from "./pages/ForgotPassword";
import { ResetPassword } from "./pages/ResetPassword";
import { Checkout } from "./pages/Checkout";
import { Cart } from "./pages/Cart";

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
          <Route path="*" element={<NotFound />} />
        </Route>
      </Routes>
    </GenderProvider>
  );
}
