import { HomePage } from "@/components/home/home-page";

export default function ManagerHomePage() {
  return <HomePage role="manager" />;
}
