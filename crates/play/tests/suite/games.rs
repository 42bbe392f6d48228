//! Whole games between agents under every rule set.

use board::Rules;
use play::{RandomAgent, play_game};

#[test]
fn random_players_finish_renju_and_caro_games_without_an_illegal_move() {
    let caro_freestyle: Rules = "15,15,5,caro-freestyle".parse().unwrap();
    for rules in [Rules::renju(), Rules::caro(), "9,9,5,renju".parse().unwrap(), caro_freestyle] {
        for seed in 0..6 {
            let (mut x, mut o) = (RandomAgent::new(seed), RandomAgent::new(seed + 100));
            let record = play_game(rules, [&mut x, &mut o], &[], &play::Limits::none()).unwrap();
            assert_eq!(record.forfeit, None, "{rules} seed {seed}");
            assert_eq!(record.check(), Ok(()));
        }
    }
}
