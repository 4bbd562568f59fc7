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

/**
 * Routes (SPEC §2): `/`, `/mens`, `/womens` home (feed, or search results with `?search=`);
 * `/stores` and its gendered forms; `/stores/<id>/<handle>`; `/products/<id>/<handle>`;
 * `/photo-search`; `/login`; 404.
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
          <Route path="*" element={<NotFound />} />
        </Route>
      </Routes>
    </GenderProvider>
  );
}
