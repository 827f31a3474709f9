fn main() {
    println!("despatch: under construction");
}
