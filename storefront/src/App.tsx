import { Route, Routes } from "react-router-dom";
import { Layout } from "./components/Layout";
import { Home } from "./pages/Home";
import { Stores } from "./pages/Stores";
import { Login } from "./pages/Login";
import { NotFound } from "./pages/NotFound";
import { GenderProvider } from "./lib/gender";

/** Routes (SPEC §2): `/`, `/mens`, `/womens` home; `/stores` and its gendered forms; `/login`; 404. */
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
          <Route path="/login" element={<Login />} />
          <Route path="*" element={<NotFound />} />
        </Route>
      </Routes>
    </GenderProvider>
  );
}
